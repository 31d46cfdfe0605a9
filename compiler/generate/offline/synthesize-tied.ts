/**
 * A drafted check tied to one thing, where the labels leave the phrase reading standing (issue 25).
 * When the phrase reading fits every label given, the search looks for no other reading: among
 * the thousands that fit as well, ranking by change from the draft keeps the draft, and most
 * drafts are right there (running the search anyway and taking the closest reading that judges an
 * unlabeled sample otherwise lost 23 held-out verdicts for 3 gained over the development groups).
 * One change did better than the draft when measured over every group: `on:` added to a drafted
 * check of two events that lacks it, on a key both events carry, where the words ground it ("that
 * prescription", "the same run", a key they name) — "the most recent `check_stolen` response for
 * the serial number of the item" read without `on` passes a purchase checked on another item's
 * serial. Six labels seldom include a sample where the two events are of different things, so
 * both readings fit them; the words say which one is meant, and the tie is what they say.
 *
 * The tied check is a variant of the drafted one (synthesize-variants.ts: the same `drafted`
 * index, priced and built as one), with its verdicts from the judge's code. The caller keeps it
 * only when it still fits every label and judges some unlabeled sample otherwise.
 */
import type { Trajectory } from "../../../runtime/types.js";
import type { Check, Matcher, MetaBehavior, Pattern } from "../../ir/types.js";
import { exactValue } from "../../ir/values.js";
import { previewRule } from "../preview.js";
import type { Vocab } from "./synthesize-vocab.js";
import type { Vector } from "./synthesize-eval.js";
import { identifying, isAmountKey, MAX_KEYS } from "./synthesize-keys.js";
import type { Variant } from "./synthesize-variants.js";
import { nameStems } from "./words.js";

/** The one action a pattern of one exact matcher names, else undefined. */
function actionOf(p: Pattern | undefined): string | undefined {
  return p?.length === 1 ? exactValue((p[0] as Matcher).action) : undefined;
}

/** The check's two events' actions, when it relates two and is not tied yet. */
function untiedPair(check: Check): [string, string] | undefined {
  const pair = (a: Pattern | undefined, b: Pattern | undefined): [string, string] | undefined => {
    const [x, y] = [actionOf(a), actionOf(b)];
    return x === undefined || y === undefined || x === y ? undefined : [x, y];
  };
  switch (check.type) {
    case "ordering":
      return check.on === undefined ? pair(check.first, check.before) : undefined;
    case "pairing":
      return check.on === undefined ? pair(check.each, check.followedBy) : undefined;
    case "required":
    case "forbidden":
      return check.on === undefined && check.after !== undefined ? pair(check.after, check.match) : undefined;
    case "condition": {
      const bindings = Object.values(check.with ?? {});
      return bindings.length === 1 && bindings[0]!.on === undefined
        ? pair(bindings[0]!.latest ?? bindings[0]!.first, check.each)
        : undefined;
    }
    default:
      return undefined;
  }
}

/** A pairing of the check's two events within `within` steps, or a required event after another read as one; else undefined. */
function windowedOf(check: Check, within: number): Check | undefined {
  if (check.type === "pairing") return check.within === undefined ? { ...check, within } : undefined;
  if (check.type !== "required" || check.after === undefined) return undefined;
  const on = typeof check.on === "string" ? { on: check.on } : {};
  if (check.on !== undefined && typeof check.on !== "string") return undefined;
  return { type: "pairing", quote: check.quote, each: check.after, followedBy: check.match, ...on, within };
}

/** The check tied on `key` (a condition's one binding, or the check's own `on`). */
function tiedOn(check: Check, key: string): Check {
  const on = `metadata.${key}`;
  if (check.type !== "condition") return { ...check, on } as Check;
  const [name, binding] = Object.entries(check.with!)[0]!;
  return { ...check, with: { [name]: { ...binding, on } } };
}

/**
 * Each drafted check of two untied events, tied on each key both events carry that may name one
 * thing (not an amount, two values or more on each side) and that the words ground: "same",
 * "that …", or the key's own name. Named keys first, then identifiers, at most MAX_KEYS a check;
 * with their verdicts on every sample, ungated.
 */
export function tiedVariants(
  rule: MetaBehavior,
  samples: readonly Trajectory[],
  vocab: Pick<Vocab, "keys" | "cues" | "words" | "splits">,
): { variant: Variant; vector: Vector }[] {
  const named = (key: string) => nameStems(key).some((s) => s !== "id" && vocab.words.has(s));
  const variants: Variant[] = [];
  rule.checks.forEach((check, k) => {
    // A window the words give in steps ("no later than the second step after the payment") that
    // the drafted check of the two events lacks: as grounded as a tie, and as seldom told apart by
    // six labels.
    for (const within of vocab.cues.within.filter((n) => n >= 2)) {
      const windowed = windowedOf(check, within);
      if (windowed !== undefined) variants.push({ drafted: k, check: windowed, subject: undefined });
    }
    const pair = untiedPair(check);
    if (pair === undefined) return;
    const theirs = new Map((vocab.keys.get(pair[1]) ?? []).map((f) => [f.key, f]));
    const shared = (vocab.keys.get(pair[0]) ?? []).filter((f) => {
      const other = theirs.get(f.key);
      return other !== undefined && !f.key.startsWith("@") && !isAmountKey(f) && f.values.length >= 2 && other.values.length >= 2;
    });
    const grounded = shared.filter((f) => vocab.cues.same || named(f.key));
    const order = (f: (typeof shared)[number]) => (named(f.key) ? 0 : 2) + (identifying(f) || identifying(theirs.get(f.key)!) ? 0 : 1);
    for (const f of grounded.sort((a, b) => order(a) - order(b)).slice(0, MAX_KEYS))
      variants.push({ drafted: k, check: tiedOn(check, f.key), subject: undefined });
    // One thing under two names ("the feed chart of that same baby": `baby_id` on the issue,
    // `patient_id` on the chart), where the words say "same" and the samples show the keys alike.
    if (check.type === "pairing" && vocab.cues.same && grounded.length === 0)
      for (const [each, followedBy] of vocab.splits({ action: pair[0] }, { action: pair[1] }))
        variants.push({
          drafted: k,
          check: { ...check, on: { each: `metadata.${each}`, followedBy: `metadata.${followedBy}` } },
          subject: undefined,
        });
    // So for an event forbidden after another ("no proof of delivery for that consignment once it is
    // marked lost"). Not for a required one: a move required after a check of its field, tied so, read
    // "check that field first" the wrong way round more surely than the untied check did (blind18).
    if (check.type === "forbidden" && vocab.cues.same && grounded.length === 0)
      for (const [after, match] of vocab.splits({ action: pair[0] }, { action: pair[1] }))
        variants.push({
          drafted: k,
          check: { ...check, on: { after: `metadata.${after}`, match: `metadata.${match}` } },
          subject: undefined,
        });
  });
  if (variants.length === 0) return [];
  const anyEvent: Pattern = [{ actor: "user" }, { actor: "agent" }, { actor: "tool" }];
  const run = previewRule(
    { ...rule, trigger: { description: "any event", match: anyEvent }, checks: variants.map((v) => v.check) },
    samples,
  );
  return variants.map((variant, k) => {
    const clause = run.clauses.find((c) => c.clause.kind === "check" && c.clause.index === k)!;
    const vector = samples.map((s) => (clause.samples.pass.includes(s.id) ? "true" : clause.samples.fail.includes(s.id) ? "false" : "na"));
    return { variant, vector: vector as Vector };
  });
}

/**
 * The search's pick tied where its words tie it: the same test as for a drafted check (above), on
 * the checks of a reading the labels chose. The plain search stops at the first reading that fits
 * every label, and an `on:` is one of the extended forms it tries only when no plain reading fits:
 * "Upon a Lost Key Report for a Key System, the Provider shall not cut any further Key for that Key
 * System" was picked as no cut after any lost-key report, of any system. The first tied variant
 * (named keys first) that agrees with as many labels as the pick and judges some unlabeled sample
 * otherwise replaces it; else the pick stands (undefined). Each reading judged, the pick's own first,
 * is one of the search's budget (`judge`).
 */
export function tiedPick(
  pick: MetaBehavior,
  samples: readonly Trajectory[],
  vocab: Pick<Vocab, "keys" | "cues" | "words" | "splits">,
  labelOf: (id: string) => Vector[number] | undefined,
  /** Called before each tied reading is judged; false when the search's budget is spent. */
  judge: () => boolean,
): MetaBehavior | undefined {
  if (!judge()) return undefined;
  const variants = tiedVariants(pick, samples, vocab);
  if (variants.length === 0) return undefined;
  const verdicts = (rule: MetaBehavior): Vector => {
    const run = previewRule(rule, samples);
    return samples.map((s) => (run.rule.pass.includes(s.id) ? "true" : run.rule.fail.includes(s.id) ? "false" : "na")) as Vector;
  };
  const labeled = samples.flatMap((s, i) => (labelOf(s.id) === undefined ? [] : [i]));
  const agree = (v: Vector) => labeled.filter((i) => v[i] === labelOf(samples[i]!.id)).length;
  const before = verdicts(pick);
  for (const { variant } of variants) {
    if (!judge()) return undefined;
    const rule = { ...pick, checks: pick.checks.map((c, k) => (k === variant.drafted ? variant.check : c)) };
    const after = verdicts(rule);
    if (agree(after) >= agree(before) && samples.some((s, i) => labelOf(s.id) === undefined && after[i] !== before[i])) return rule;
  }
  return undefined;
}
