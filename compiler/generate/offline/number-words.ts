/**
 * Numbers written in words (issue 25): "six thousand", "seven thousand five hundred", "twenty-five",
 * "one and a half", "a dozen", "nil". One reading for every reader that meets them: the label path's
 * numbers (units.ts), the voice step that writes a large one as digits (voice-numbers.ts) and the one
 * that drops the words before a figure that says them again (voice-figures.ts).
 */

/** The number words below a hundred, each with its value ("nil" and "zero" 0). */
export const SMALL: Readonly<Record<string, number>> = {
  zero: 0,
  nil: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000, million: 1_000_000 };

/** A regular expression's source for one number word ("seven", "forty", "thousand"), for readers that find runs by pattern. */
export const NUMBER_WORD = `(?:${[...Object.keys(SMALL).filter((w) => SMALL[w]! > 0), ...Object.keys(SCALES)].join("|")})`;

const WORD = /[A-Za-z]+/g;

/**
 * Numbers written in words: "six thousand", "seven thousand five hundred", "twenty-five", "one and
 * a half", "a dozen", "a hundred and fifty", "nil". Each run of number words is one number, read
 * as it is spoken (a scale multiplies what stands before it). Spans and values, in order; every
 * run, whatever follows it (writtenNumerals decides which count).
 */
export function spelledNumbers(text: string): { n: number; start: number; end: number; scaled: boolean }[] {
  const words = [...text.matchAll(WORD)].map((m) => ({ w: m[0].toLowerCase(), start: m.index!, end: m.index! + m[0].length }));
  const out: { n: number; start: number; end: number; scaled: boolean }[] = [];
  for (let i = 0; i < words.length; i++) {
    // "a dozen", "a thousand", "a hundred": the article is one.
    const article =
      (words[i]!.w === "a" || words[i]!.w === "an") && i + 1 < words.length && (words[i + 1]!.w in SCALES || words[i + 1]!.w === "dozen");
    if (!article && !(words[i]!.w in SMALL)) continue;
    let total = 0;
    let current = article ? 1 : 0;
    let scaled = false;
    let j = article ? i + 1 : i;
    let end = words[i]!.end;
    let last = i;
    // Only spaces or a hyphen between two number words ("twenty-five", "six thousand"): a comma or a stop ends the number.
    const adjacent = (k: number) => /^[\s-]+$/.test(text.slice(words[last]!.end, words[k]!.start));
    for (; j < words.length; j++) {
      const { w } = words[j]!;
      if (j > i && !adjacent(j)) break;
      if (w === "and") {
        const next = words[j + 1]?.w;
        // "one and a half"
        if (next === "a" && words[j + 2]?.w === "half") {
          current += 0.5;
          scaled = true;
          last = j + 2;
          end = words[last]!.end;
          j += 2;
          continue;
        }
        // "three hundred and fifty", never "two and three".
        if (words[last]!.w in SCALES && next !== undefined && next in SMALL && SMALL[next]! > 0) {
          last = j;
          continue;
        }
        break;
      }
      if (j > i && (w === "zero" || w === "nil")) break;
      if (w in SMALL) {
        const v = SMALL[w]!;
        // "twenty-five" adds a unit to a ten; "five twenty" is two numbers.
        const ones = current % 100;
        if (ones === 0 || (ones % 10 === 0 && ones >= 20 && v < 10 && v > 0)) current += v;
        else break;
      } else if (w === "dozen" || w === "hundred") {
        current = (current || 1) * (w === "dozen" ? 12 : 100);
        scaled = true;
      } else if (w in SCALES) {
        total += (current || 1) * SCALES[w]!;
        current = 0;
        scaled = true;
      } else break;
      last = j;
      end = words[j]!.end;
    }
    const n = total + current;
    out.push({ n, start: words[i]!.start, end, scaled });
    // Skip the words read: the next run starts after them.
    while (i + 1 < words.length && words[i + 1]!.start < end) i++;
  }
  return out;
}

/** The value of `run` when the whole of it is one number in words ("one hundred and twenty"), else undefined ("five six"). */
export function wordsValue(run: string): number | undefined {
  const read = spelledNumbers(run.trim());
  return read.length === 1 && read[0]!.start === 0 && read[0]!.end === run.trim().length ? read[0]!.n : undefined;
}
