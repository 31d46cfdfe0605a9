/**
 * Lists of values in rule sentences (docs/FORMATS.md §10.1): "the embargoed districts: Marlow,
 * Kettering Vale and Port Ashby", "classified as firearms, pharmaceuticals or explosives", "a
 * luxury or SUV booking". A list of two or more items, at least one of which is a value the samples
 * show for some metadata key, becomes `{in: [...]}` on that key, every item kept (an item no
 * sample shows is written in the key's style: lower case, underscores), on the event that carries
 * the key: the phrase's own action, its result, or the one action the samples show the key on.
 */
import type { Matcher, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { Lexicon } from "./lexicon.js";
import { bestAction } from "./lexicon.js";
import { PARTICIPLE } from "./shape.js";

export interface ValueList {
  key: string;
  values: string[];
  start: number;
  end: number;
}

/** Keys whose values name things one by one (ids) are not lists of categories. */
const MAX_VALUES = 20;
const ITEM = String.raw`[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}`;
const SEPARATOR = String.raw`(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)`;
const LIST = new RegExp(`${ITEM}(?:${SEPARATOR}${ITEM})+`, "g");
/** Words that end a list item: what follows is no longer the item ("SUV booking", "Port Ashby until"). */
const STOP =
  /^(?:the|a|an|is|are|was|were|be|been|has|have|had|must|may|can|should|will|it|they|that|this|which|who|until|unless|when|whatever|whoever|however|to|for|of|on|in|at|by|with|from|as|any|every|each|its|their)$/i;

/** Words that compare a number ("or less", "or more"): an item of them is the end of an amount, not a value. */
const COMPARATIVE = /^(?:less|more|fewer|lower|higher|greater|below|above|under|over|lesser)$/i;

/** "uploaded against …", "signed by …", "sent to …": a participle and the preposition of its complement. */
const REDUCED_RELATIVE = new RegExp(
  `^${PARTICIPLE}\\s+(?:against|for|to|by|with|on|in|at|from|into|under|within|before|after|no\\s+later)\\b`,
  "i",
);
const LONE_PARTICIPLE = new RegExp(`^${PARTICIPLE}$`, "i");

interface KeyValues {
  key: string;
  values: string[];
}

/** The categorical keys of the samples and their values, over every action. */
function categoricalKeys(lexicon: Lexicon): KeyValues[] {
  const byKey = new Map<string, Set<string>>();
  for (const action of lexicon.actions)
    for (const meta of action.metadata) {
      if (meta.key.startsWith("@") || /(?:^|_)id$/i.test(meta.key) || meta.distinct > MAX_VALUES) continue;
      if (meta.values.every((v) => /^-?\d+(?:\.\d+)?$/.test(v.value))) continue;
      const set = byKey.get(meta.key) ?? new Set<string>();
      for (const v of meta.values) set.add(v.value);
      byKey.set(meta.key, set);
    }
  return [...byKey].map(([key, values]) => ({ key, values: [...values] })).sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Lower case, with `_` and `-` as spaces: a sample value and a spec word compared as words. */
export const norm = (text: string) => text.toLowerCase().replace(/[_-]+/g, " ").trim();

/** An item in the key's style: a sample value it names, else the words as the key writes its values. */
function styled(item: string, values: readonly string[]): string {
  const known = values.find((v) => norm(v) === norm(item));
  if (known !== undefined) return known;
  const lower = values.every((v) => v === v.toLowerCase());
  const underscored = values.some((v) => v.includes("_")) && !values.some((v) => v.includes(" "));
  let out = lower ? item.toLowerCase() : item;
  if (underscored) out = out.replace(/\s+/g, "_");
  return out;
}

/** The item's words up to the first word that is not part of a name, and whether words were cut. */
function trimItem(item: string, values: readonly string[]): string {
  const words = item.split(/\s+/);
  // A sample value at the item's start is the item: "SUV booking" is `suv`.
  for (let n = words.length; n >= 1; n--)
    if (values.some((v) => norm(v) === norm(words.slice(0, n).join(" ")))) return words.slice(0, n).join(" ");
  const cut = words.findIndex((w) => STOP.test(w));
  return (cut < 0 ? words : words.slice(0, cut)).join(" ");
}

/** The first list in the phrase whose items include a sample value of one key. */
export function valueList(lexicon: Lexicon, phrase: string): ValueList | undefined {
  const keys = categoricalKeys(lexicon);
  if (keys.length === 0) return undefined;
  // Values the spec writes in backticks ("`IR`, `BY` or `KP`") are list items too: the backticks
  // become spaces, so every offset below is still the phrase's own.
  // A value written with its key ("`form: liquid` or `form: sludge`") is the value alone: the key is
  // no item of the list. The key's letters become spaces too, so the offsets stay the phrase's own.
  // Values written with different keys ("`state: decommissioned` and `hold: no`") are two matchers, no list.
  const written = [...phrase.matchAll(/`([A-Za-z_][\w.-]*):\s*[^`\s][^`]*`/g)].map((w) => ({ at: w.index, key: w[1]! }));
  const mixed = (from: number, to: number) => new Set(written.filter((w) => w.at >= from && w.at < to).map((w) => w.key)).size > 1;
  phrase = phrase.replace(
    /`[A-Za-z_][\w.-]*:\s*([^`\s][^`]*)`/g,
    (all, value: string) => `${" ".repeat(all.length - value.length - 1)}${value} `,
  );
  phrase = phrase.replace(/`/g, " ");
  for (const m of phrase.matchAll(LIST)) {
    const text = m[0];
    if (mixed(m.index!, m.index! + text.length)) continue;
    const raw = text.split(new RegExp(SEPARATOR)).map((s) => s.trim());
    const colon = /:\s*$/.test(phrase.slice(0, m.index));
    for (const { key, values } of keys) {
      const isValue = (item: string) => values.some((v) => norm(v) === norm(item));
      // The first item may start with words that are not in the list ("classified as firearms"):
      // the longest value at its end, else (after a colon) all of it, else its last word.
      const first = raw[0]!.split(/\s+/);
      let head = -1;
      for (let n = first.length; n >= 1 && head < 0; n--) if (isValue(first.slice(-n).join(" "))) head = first.length - n;
      if (head < 0) head = colon ? 0 : STOP.test(first.at(-1)!) ? first.length : first.length - 1;
      const lead = first.slice(head).join(" ");
      // "a paid invoice or receipt, uploaded against that same invoice": a participle with its complement after a comma
      // says what is done with the items (a reduced relative clause), and the list ends before it.
      // So is a participle alone as the last item after a bare comma ("a receipt, uploaded"): a list's last item comes after "and" or "or".
      const bare = /,\s*[^,]*$/.test(text) && !/,\s*(?:and|or)\s+[^,]*$/i.test(text);
      const clause = raw.findIndex(
        (i, n) => n > 0 && !isValue(i) && (REDUCED_RELATIVE.test(i) || (bare && n === raw.length - 1 && LONE_PARTICIPLE.test(i))),
      );
      const listed = clause < 0 ? raw : raw.slice(0, clause);
      const items = [lead, ...listed.slice(1).map((i) => trimItem(i, values))].filter((i) => i !== "");
      // "15 km/h or less and no rain forecast": a unit's letters after a slash, and a comparison word, are no values.
      if (items.some((i) => !isValue(i) && COMPARATIVE.test(i)) || (/\/$/.test(phrase.slice(0, m.index)) && !isValue(lead))) continue;
      const known = items.filter(isValue).length;
      // One known value is enough for a list a colon introduces or one of single words; else two.
      if (items.length < 2 || known === 0 || (known < 2 && !colon && items.some((i) => /\s/.test(i)))) continue;
      const start = m.index! + text.indexOf(items[0]!);
      const last = items.at(-1)!;
      const end = m.index! + text.lastIndexOf(last) + last.length;
      return { key, values: [...new Set(items.map((i) => styled(i, values)))], start, end };
    }
  }
  return undefined;
}

function carries(lexicon: Lexicon, action: string, key: string): boolean {
  return lexicon.actions.some((a) => a.name === action && a.metadata.some((m) => m.key === key));
}

/**
 * The pattern with the list on its key: on each matcher's action when it carries the key, else on
 * its result; when no matcher can carry it, the one action the phrase's words point to among
 * those carrying the key. Undefined when no event can carry it.
 */
export function withList(lexicon: Lexicon, pattern: Pattern | undefined, list: ValueList, phrase: string): Pattern | undefined {
  const set = (m: Matcher): Matcher => ({ ...m, metadata: { ...m.metadata, [list.key]: { in: list.values } } });
  const placed = (pattern ?? []).flatMap((m) => {
    const action = exactValue(m.action);
    if (action === undefined) return [];
    if (carries(lexicon, action, list.key)) return [set(m)];
    const result = `${action}_result`;
    return carries(lexicon, result, list.key) ? [set({ action: result })] : [];
  });
  if (placed.length > 0) return placed;
  // The actions that show one of the listed values on the key.
  const holders = lexicon.actions.filter((a) =>
    a.metadata.some((m) => m.key === list.key && m.values.some((v) => list.values.includes(v.value))),
  );
  const best = bestAction(lexicon, phrase, (a) => holders.includes(a));
  const action = best?.action ?? (holders.length === 1 ? holders[0]!.name : undefined);
  return action === undefined ? undefined : [set({ action })];
}
