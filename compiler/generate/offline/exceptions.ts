/**
 * Exceptions to a prohibition: "never books another inspection for that permit except a
 * `reinspection`", "no vehicle is released to anyone other than a `verified` driver". What the
 * exception names is left out of what is forbidden (a `not` on the key that carries it), never put
 * in its place: read as the forbidden act itself, the exception would turn the rule over. When the
 * exception names no value of the forbidden event's keys, the clause stays a question.
 */
import type { Matcher, Pattern, ValueMatcher } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import type { Lexicon } from "./lexicon.js";
import { norm } from "./lists.js";

/** The exception's words at the end of a clause: "except (for) …", "other than …", "apart from …", "save for …". */
const EXCEPT = /,?\s+\b(?:except(?:\s+for)?|other\s+than|apart\s+from|save\s+for|with\s+the\s+exception\s+of)\s+(.+)$/i;

/** The clause without its exception, and the exception's words; undefined when the clause makes none. */
export function exceptionOf(clause: string): { rest: string; exception: string } | undefined {
  const match = EXCEPT.exec(clause);
  if (match === null || match.index === 0) return undefined;
  return { rest: clause.slice(0, match.index), exception: match[1]! };
}

/** The values the exception names for one key of the action: its backticked words, else its plain words, that the samples show. */
function namedValues(lexicon: Lexicon, action: string, exception: string): { key: string; values: string[] } | undefined {
  const ticked = [...exception.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const candidates = ticked.length > 0 ? ticked : exception.split(/[^A-Za-z0-9_-]+/).filter((w) => w.length >= 3);
  for (const meta of lexicon.actions.find((a) => a.name === action)?.metadata ?? []) {
    if (/(?:^|_)id$/i.test(meta.key)) continue;
    const values = candidates.flatMap((c) => meta.values.filter((v) => norm(v.value) === norm(c)).map((v) => v.value));
    if (values.length > 0) return { key: meta.key, values: [...new Set(values)] };
  }
  return undefined;
}

/**
 * The forbidden pattern without what the exception names: each matcher whose action carries a
 * key with the named values gets `not` on that key (in place of any value the clause's words put
 * there). Undefined when no matcher does: the exception cannot be told apart by the events.
 */
export function withException(lexicon: Lexicon, pattern: Pattern, exception: string): Pattern | undefined {
  let excepted = false;
  const out = pattern.map((m): Matcher => {
    const action = exactValue(m.action);
    const named = action === undefined ? undefined : namedValues(lexicon, action, exception);
    if (named === undefined) return m;
    excepted = true;
    const inner: ValueMatcher = named.values.length === 1 ? named.values[0]! : { in: named.values };
    return { ...m, metadata: { ...m.metadata, [named.key]: { not: inner } } };
  });
  return excepted ? out : undefined;
}
