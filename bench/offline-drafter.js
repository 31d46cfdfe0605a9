#!/usr/bin/env node
// How close the offline drafter (generate --offline) comes to hand-written judges.
//
//   npm run build:cli && node bench/offline-drafter.js
//
// For each spec, drafts judge.yaml from BEHAVIOR.md and the sample trajectories, then
// checks every hand-written check: does the draft have one of the same type, with the
// same patterns (any-of lists as sets) and the same count bounds, in the rule of the
// same name? "strict" compares matchers field for field; "lenient" also accepts a
// matcher without an `actor` that the samples show is the action's only actor.
// The figure counts hand-written checks the draft reproduces; it does not
// penalize what the draft adds. So each spec also says how many drafted checks
// match no hand-written one (a wrong extra check can fail a good trajectory),
// and how many triggers match the same events as the hand-written ones.
// The examples are what the drafter was developed on. The three test fixtures were written
// later, each with its reference judge, before the drafter saw it; measured then, it scored
// 0/6, 2/7 and 3/5 (5/18). The general fixes that followed were made with them in view, so
// their figure below is no longer an out-of-sample one.
//
// The held-out-2026 specs (test/fixtures/spec/held-out-2026/) were written for issue 14,
// in domains unlike the above, before the drafter was changed for them. Each sample there
// is a labeled case, and for those specs the benchmark also reports what a user sees: the
// draft accepted as proposed is built (the same compile `build` runs) and calibrated
// against the hand labels, counting rule verdicts that agree. Before any change for
// issue 14 the draft agreed on 110/159 rule verdicts (69%), per spec: code-review 24/24,
// content-moderation 21/35, data-erasure 13/28, incident-response 24/24, medical-intake 9/24,
// travel-booking 19/24; it reproduced 12/26 hand-written checks. The general changes that
// followed (results named by a value the phrase writes, shared roots, "verb no X", "without
// having", complements of forbidden counts, time frames, and the samples' plausibility: a
// result only stands for its call where the samples always log it, a rule no sample keeps
// is misread) were made looking at the drafts of content-moderation, data-erasure,
// medical-intake and travel-booking, so from then on these figures are not out-of-sample.
// expense-reports was written after those changes, without looking at its draft first:
// 20/28 both with the drafter before issue 14 and right after the changes above. Then its
// draft was looked at too (results named up to the value's root, yes/no keys, "is only X-ed
// after"): 28/28. Every figure of this set is in-sample now; the next spec written is the
// next out-of-sample measurement.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = (path) => import(join(root, "dist", path));

/** The comparison is test code, kept out of dist/: it imports only types, so esbuild's transform is enough. */
async function importTypeScript(path) {
  const { transform } = await import("esbuild");
  const { code } = await transform(readFileSync(path, "utf8"), { loader: "ts", format: "esm" });
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}
const { parseBehaviorMd } = await dist("compiler/behavior-md/load.js");
const { parseJudgeYaml } = await dist("compiler/ir/parse.js");
const { buildVocabulary } = await dist("compiler/generate/vocabulary.js");
const { draftOffline } = await dist("compiler/generate/offline/draft.js");
const { compareChecks, comparePrecision } = await importTypeScript(join(root, "test/support/compare.ts"));
const { validateTrajectory } = await dist("runtime/trajectory.js");
const { serializeJudgeYaml } = await dist("compiler/ir/serialize.js");
const { compileJudgeYamlText } = await dist("compiler/build/compile.js");
const { importJudgeSource } = await dist("compiler/judge/load.js");
const { calibrate } = await dist("compiler/judge/calibrate.js");
const { readCases } = await dist("compiler/judge/inputs.js");

const specs = [
  ["examples", join(root, "examples/refund-support")],
  ["examples", join(root, "examples/staged-rollout")],
  ["examples", join(root, "examples/tax-research")],
  ["written later", join(root, "test/fixtures/spec/held-out")],
  ["written later", join(root, "test/fixtures/spec/held-out-2")],
  ["written later", join(root, "test/fixtures/spec/held-out-3")],
  ...readdirSync(join(root, "test/fixtures/spec/held-out-2026"))
    .sort()
    .map((name) => ["held-out-2026", join(root, "test/fixtures/spec/held-out-2026", name)]),
];

/** Rule verdicts of a judge.yaml's judge on labeled cases that agree with the labels (no model: semantic clauses are na). */
async function ruleAgreement(ir, files) {
  const { compiled } = await compileJudgeYamlText(serializeJudgeYaml(ir), "judge.yaml");
  const judge = await importJudgeSource(compiled.judgeMjs);
  const result = await calibrate(judge, readCases(files));
  if (result.errors.length > 0) throw new Error(result.errors.join("\n"));
  return result.totals;
}
function labeledFiles(dir) {
  const folder = join(dir, "trajectories");
  return readdirSync(folder)
    .filter((f) => /\.json$/.test(f))
    .sort()
    .map((f) => join(folder, f));
}

function samplesOf(dir) {
  const folder = join(dir, "trajectories");
  return readdirSync(folder)
    .filter((f) => /\.json$/.test(f))
    .sort()
    .flatMap((f) => {
      const value = JSON.parse(readFileSync(join(folder, f), "utf8"));
      return (Array.isArray(value) ? value : [value]).map((item) => validateTrajectory(item.trajectory ?? item));
    });
}

const totals = new Map();
for (const [group, dir] of specs) {
  const spec = parseBehaviorMd(readFileSync(join(dir, "BEHAVIOR.md"), "utf8"));
  const reference = parseJudgeYaml(readFileSync(join(dir, "judge.yaml"), "utf8"));
  if (!spec.ok || !reference.ok) throw new Error(`${dir}: spec or judge.yaml does not parse`);
  const samples = samplesOf(dir);
  const vocabulary = buildVocabulary(samples);
  const draft = draftOffline({ spec: spec.spec, vocabulary, samples });
  const figure = compareChecks(reference.ir, draft.ir, vocabulary);
  const precision = comparePrecision(reference.ir, draft.ir, vocabulary);
  let verdicts = "";
  let agreement;
  if (group === "held-out-2026") {
    const hand = await ruleAgreement(reference.ir, labeledFiles(dir));
    if (hand.metaAgree !== hand.metaTotal)
      throw new Error(`${dir}: the hand-written judge disagrees with the labels (${hand.metaAgree}/${hand.metaTotal})`);
    agreement = await ruleAgreement(draft.ir, labeledFiles(dir));
    verdicts = `; rule verdicts ${agreement.metaAgree}/${agreement.metaTotal} agree with the labels`;
  }
  console.log(
    `${spec.spec.name} (${group}): ${figure.strict}/${figure.total} strict, ${figure.lenient}/${figure.total} lenient; ${precision.extraChecks.length} extra drafted check(s); triggers ${precision.sameTriggers}/${precision.triggers} same${verdicts}`,
  );
  for (const check of figure.checks) {
    const mark = check.strict ? "same" : check.lenient ? "same up to a redundant actor" : "different";
    console.log(`  ${check.rule} · checks[${check.index}] ${check.type}: ${mark}`);
  }
  for (const check of precision.extraChecks)
    console.log(`  ${check.rule} · drafted checks[${check.index}] ${check.type}: not in the hand-written judge`);
  const total = totals.get(group) ?? {
    total: 0,
    strict: 0,
    lenient: 0,
    extra: 0,
    triggers: 0,
    sameTriggers: 0,
    metaAgree: 0,
    metaTotal: 0,
  };
  if (agreement) {
    total.metaAgree += agreement.metaAgree;
    total.metaTotal += agreement.metaTotal;
  }
  total.total += figure.total;
  total.strict += figure.strict;
  total.lenient += figure.lenient;
  total.extra += precision.extraChecks.length;
  total.triggers += precision.triggers;
  total.sameTriggers += precision.sameTriggers;
  totals.set(group, total);
}
console.log("");
for (const [group, t] of totals) {
  const pct = (n) => `${Math.round((100 * n) / t.total)}%`;
  const verdicts =
    t.metaTotal > 0
      ? `; rule verdicts ${t.metaAgree}/${t.metaTotal} (${Math.round((100 * t.metaAgree) / t.metaTotal)}%) agree with the labels`
      : "";
  console.log(
    `${group}: ${t.strict}/${t.total} (${pct(t.strict)}) strict, ${t.lenient}/${t.total} (${pct(t.lenient)}) lenient; ${t.extra} extra drafted check(s); triggers ${t.sameTriggers}/${t.triggers} same${verdicts}`,
  );
}
