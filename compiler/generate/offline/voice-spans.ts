/**
 * The spans of the voice layer (voice.ts): a sentence rewritten step by step keeps, for every
 * character of its new text, the span of the original it came from, so that a quote the readers cut
 * from the rewritten sentence maps back to the spec's own words.
 */
/** A sentence as rewritten, with the span of the original each character comes from. */
export interface Voiced {
  original: string;
  text: string;
  /** Per character of `text`: where its source starts in `original`. */
  from: number[];
  /** Per character of `text`: where its source ends (exclusive) in `original`. */
  to: number[];
}

export function unchanged(sentence: string): Voiced {
  const from = [...sentence].map((_, i) => i);
  return { original: sentence, text: sentence, from, to: from.map((i) => i + 1) };
}

/** Each match of `pattern` (global) replaced by what `replace` returns for it (undefined: left alone), with the spans kept. */
export function rewrite(voiced: Voiced, pattern: RegExp, replace: (m: RegExpExecArray, text: string) => string | undefined): Voiced {
  let text = "";
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(voiced.text); m !== null; m = pattern.exec(voiced.text)) {
    if (m[0] === "") {
      pattern.lastIndex++;
      continue;
    }
    const by = replace(m, voiced.text);
    if (by === undefined || by === m[0]) continue;
    const start = m.index;
    const end = start + m[0].length;
    text += voiced.text.slice(at, start);
    from.push(...voiced.from.slice(at, start));
    to.push(...voiced.to.slice(at, start));
    // The new words stand for the whole of what they replace.
    text += by;
    for (let i = 0; i < by.length; i++) {
      from.push(voiced.from[start]!);
      to.push(voiced.to[end - 1]!);
    }
    at = end;
  }
  if (at === 0) return voiced;
  text += voiced.text.slice(at);
  from.push(...voiced.from.slice(at));
  to.push(...voiced.to.slice(at));
  return { original: voiced.original, text, from, to };
}

/**
 * The spec's own words for a quote the readers cut from the rewritten sentence: the original span
 * from where the quote's first character came from to where its last one did. A quote the
 * rewritten sentence does not hold (a reader's own paraphrase) is the whole original sentence.
 */
export function originalQuote(voiced: Voiced, quote: string): string {
  if (voiced.text === voiced.original) return quote;
  const at = voiced.text.indexOf(quote);
  if (at < 0 || quote === "") return voiced.original.includes(quote) && quote !== "" ? quote : voiced.original;
  const words = voiced.original.slice(voiced.from[at]!, voiced.to[at + quote.length - 1]!).trim();
  // A quote cut only from a neighbour's words (joined) is this whole sentence.
  return words === "" ? voiced.original : words;
}

/**
 * Words of a neighbouring sentence put before (or after) this one: a question's condition before its
 * answer. They stand for no words
 * of this sentence, so a quote that starts (or ends) in them maps to this sentence's start (or end).
 */
export function joined(voiced: Voiced, prefix: string, suffix = ""): Voiced {
  const end = voiced.original.length;
  return {
    original: voiced.original,
    text: prefix + voiced.text + suffix,
    from: [...Array<number>(prefix.length).fill(0), ...voiced.from, ...Array<number>(suffix.length).fill(end)],
    to: [...Array<number>(prefix.length).fill(0), ...voiced.to, ...Array<number>(suffix.length).fill(end)],
  };
}

/** A sentence whose words another sentence now reads (a question's "What if …" before its answer): nothing to read on its own. */
export function absorbed(voiced: Voiced): Voiced {
  return { original: voiced.original, text: "", from: [], to: [] };
}
