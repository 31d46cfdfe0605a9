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
// That measurement: homework-tutor and warehouse-dispatch were written blind (by someone who
// had not read the drafter's source or any other spec's text, only the format reference),
// labeled, checked against their hand-written judges (40/40 each), and committed (a1b1bd9)
// before the drafter was first run on them. Measured then, with the drafter unchanged
// (the one of 0e8225a), out of sample: homework-tutor 14/40 rule verdicts agree with the
// labels, 0/6 hand-written checks reproduced (strict and lenient), triggers 0/5 same, 3 extra
// drafted checks; warehouse-dispatch 21/40, 0/7 checks, triggers 2/5 same, 3 extra. Together
// 35/80 (44%), against 185/187 on the seven specs above: the held-out-2026 total of 220/267
// (82%) clears issue 14's 80% only because of the in-sample specs. What went wrong, read off
// the drafts afterwards: three of five tutor triggers became "an agent event occurs" and two
// became semantic; "may only appear after ... has offered at least one hint" became a count
// (min 1) of the solution; "Every answer ... is sent to the checker" and "Each lock ... has to
// be matched by an unlock_aisle later" became plain required checks (no pairing); the
// ordering "A job only goes to a robot once ... the status result is back" and "the
// dispatcher's first job is to halt it" became semantic questions; "no more than twice" was
// counted on assign_job, the rule's only named action, instead of the reroute the sentence is
// about. Both specs' drafts have now been looked at, so these figures too are in-sample from
// here on.
// A second blind pair, greenhouse-irrigation and kyc-onboarding, was written the same way and
// committed (da45d0a, 6bd6273) before the drafter was first run on them. Measured then with the
// drafter and preview of 30fe294, out of sample: greenhouse-irrigation 34/40 rule verdicts agree
// with the labels, 2/8 hand-written checks reproduced (strict and lenient; four of the eight are
// its valve rule's one pairing per zone), triggers 2/5 same, 2 extra drafted checks, and the
// preview flags 2 of the 6 disagreements; kyc-onboarding 30/40, 2/6 checks, triggers 3/5 same,
// 1 extra, flags 3 of 10. Together 64/80 (80%); held-out-2026 as a whole 284/347 (82%). Read off
// the drafts afterwards: "Each valve the agent opens has to be closed again" became a required
// close_valve under an "an agent event occurs" trigger (no pairing); the nutrients rule became
// a semantic trigger and one question on its first sentence, with no count of "No run should
// include more than two nutrient doses"; the sanctions rule's "escalates" and "must not open the
// account" became one semantic question; "the identity check should not be run more than three
// times" was counted on check_eligibility instead of verify_identity. 16 of the 64 agreements
// are the two semantic-only rules, na without a model in draft and labels alike: on the other
// eight rules, 48/64 (75%). Their drafts were looked at only after the drafter changes below
// were made.
// Issue 14 part 3 then changed the drafter with only those two drafts in view (the dev set:
// homework-tutor and warehouse-dispatch; no other spec's draft was looked at), by general means:
// the agent's own name (the description says whom the rules are for, the preamble opens with it),
// a second modal verb and a parenthesis, "Y may only appear after X" and "Y only goes … once X",
// passives with any auxiliary as pairings (without "later" only where a sample shows the order),
// more count bounds and ", but no more than N", "re-" verbs and ask/request, a condition that
// sets up the situation of the next sentences and "after that", "X's job is to Y", "the session
// has to include Y", a passive naming an agent action, someone other than the agent as the user,
// and a windowed check's situation as the trigger. Before -> after, measured with this script:
// homework-tutor 14/40 -> 40/40 rule verdicts, 0/6 -> 6/6 checks (strict and lenient), triggers
// 0/5 -> 5/5, extra checks 3 -> 1 (a pairing the hand-written judge leaves out that every sample
// keeps); warehouse-dispatch 21/40 -> 40/40, 0/7 -> 7/7, triggers 2/5 -> 5/5, extra 3 -> 0. The
// seven other held-out-2026 specs (185/187, 28/30 checks strict), the examples (13/14 strict) and
// the three later fixtures (17/18) did not move; held-out-2026 in all 220/267 -> 265/267. These
// say the changes work on the specs they were made for, not that they generalize. The second
// blind pair (above) was written while the drafter was being changed, and whoever changed it
// never saw those specs: with the changed drafter they are the out-of-sample measurement of the
// changes: greenhouse-irrigation 34/40 -> 36/40 rule verdicts, triggers 2/5 -> 3/5, checks 2/8 and
// extra 2 unchanged, the preview (changed meanwhile, also without them) flagging 4 of the 4
// disagreements (2 of 6 before); kyc-onboarding 30/40 unchanged, 2/6 checks, triggers 3/5, flags
// 3 of 10. Together 64/80 -> 66/80 (83%), flags 5 of 16 -> 7 of 14: the changes carried over to
// unseen specs only a little; held-out-2026 in all 331/347 (95%). Both blind pairs' drafts have
// now been looked at: every figure here is in-sample until the next spec written blind.
// The other half of issue 14's done-when, "every clause that disagrees on a sample is flagged
// in the preview before it is accepted", is measured on the same drafts: for each rule verdict
// that disagrees with its label, does compiler/generate/preview.ts warn about the rule, or
// about a clause that decides that verdict on that sample (which clauses decide: see
// test/support/flagged.ts)? Measured first on the preview of 0e8225a: 0 of the 47
// disagreements are flagged (content-moderation 0/2, homework-tutor 0/26, warehouse-dispatch
// 0/19; the other six specs agree everywhere); the preview warned about no rule of any draft.
// Flagging is only worth something if the warnings are rare where nothing is wrong, so each
// spec also counts false alarms: rules of the draft that agree with every label yet draw a
// warning, and rules of the hand-written judge (right on every label) that draw one
// (falseAlarms in test/support/flagged.ts). With the preview of 30fe294: 23 of 47 flagged
// (content-moderation 2/2, homework-tutor 14/26, warehouse-dispatch 7/19), false alarms on 4
// of the 29 draft rules that agree everywhere (code-review 1, data-erasure 1, medical-intake 2,
// all "trigger matches any event") and on 2 of the 39 hand-written rules (two checks agreeing
// on two samples). The warnings added next (a check failing most samples, a semantic trigger,
// a rule failing none where most others fail some; no any-event warning for prohibitions, no
// "redundant" on fewer than three samples) were designed looking at these drafts: 45 of 47
// flagged, 3 of 29 and 0 of 39 false alarms, in-sample.
// After the second blind pair, with the drafter and preview of 4fa71a7: 9 of the 16 disagreements
// flagged, false alarms on 5 of the 44 draft rules that agree everywhere and on 4 of the 49
// hand-written rules. The 7 not flagged were all kyc-onboarding's "Don't make people scan their
// passport all afternoon", n.a. where the label is true or false: its count and trigger are on
// check_eligibility, which shares only "check" with the quote, while the quote's "identity" is
// verify_identity's. The warning added for it (quote-names-other-action: a check on one action
// whose quote names another action's object, a word no other action's name has, while the
// matched action shares only its verb) was designed with that draft in view, so its figures are
// in-sample: 16 of 16 flagged (kyc-onboarding 3/10 -> 10/10, every other spec unchanged), false
// alarms unchanged on every spec (5 of 44 draft rules, 4 of 49 hand-written), and it fires on
// no hand-written judge and no other draft, the examples and the later fixtures included.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { casesOf } from "./common.js";

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
const { agreeingRules, falseAlarms, flaggedDisagreements } = await importTypeScript(join(root, "test/support/flagged.ts"));
const { previewJudge } = await dist("compiler/generate/preview.js");
const { validateTrajectory } = await dist("runtime/trajectory.js");
const { serializeJudgeYaml } = await dist("compiler/ir/serialize.js");
const { compileJudgeYamlText } = await dist("compiler/build/compile.js");
const { importJudgeSource } = await dist("compiler/run/load.js");
const { calibrate } = await dist("compiler/analyses/calibrate.js");
const { readCases } = await dist("compiler/inputs/inputs.js");

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

/** Each labeled case's sample id and its expected verdict per rule. */
function labelsOf(dir) {
  return casesOf(dir).map((c) => ({ id: c.trajectory.id, labels: c.expected.metaBehaviorVerdicts ?? {} }));
}

/** The spec folder's samples, validated (a labeled case's trajectory or a bare trajectory). */
function samplesOf(dir) {
  return casesOf(dir).map((item) => validateTrajectory(item.trajectory ?? item));
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
  let disagreements = [];
  let alarms = [];
  let agreeing = 0;
  let handAlarms = [];
  if (group === "held-out-2026") {
    const hand = await ruleAgreement(reference.ir, labeledFiles(dir));
    if (hand.metaAgree !== hand.metaTotal)
      throw new Error(`${dir}: the hand-written judge disagrees with the labels (${hand.metaAgree}/${hand.metaTotal})`);
    // The hand-written judge agrees everywhere, so any warning its preview shows is a false alarm too.
    handAlarms = falseAlarms(previewJudge(reference.ir, samples), labelsOf(dir));
    agreement = await ruleAgreement(draft.ir, labeledFiles(dir));
    // The preview the interview shows for the draft, on the same samples: does it warn about each disagreement?
    const preview = previewJudge(draft.ir, samples);
    disagreements = flaggedDisagreements(preview, labelsOf(dir));
    alarms = falseAlarms(preview, labelsOf(dir));
    agreeing = agreeingRules(preview, labelsOf(dir)).length;
    if (disagreements.length !== agreement.metaTotal - agreement.metaAgree)
      throw new Error(`${dir}: the preview's verdicts are not the built draft's`);
    const flagged = disagreements.filter((d) => d.flagged).length;
    verdicts = `; rule verdicts ${agreement.metaAgree}/${agreement.metaTotal} agree with the labels; the preview flags ${flagged} of the ${disagreements.length} that disagree, and warns about ${alarms.length} of the ${agreeing} rule(s) that agree everywhere (false alarms), and about ${handAlarms.length} of the ${reference.ir.metaBehaviors.length} rules of the hand-written judge`;
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
  for (const d of disagreements) {
    const why = d.flagged ? `flagged: ${[...new Set(d.warnings.map((w) => w.kind))].join(", ")}` : "NOT flagged";
    console.log(`  ${d.rule} · ${d.sample}: draft ${d.draft}, label ${d.label}; ${why}`);
  }
  for (const a of handAlarms)
    console.log(`  hand-written ${a.rule}: false alarm: ${[...new Set(a.warnings.map((w) => w.kind))].join(", ")}`);
  for (const a of alarms)
    console.log(`  ${a.rule}: agrees everywhere; false alarm: ${[...new Set(a.warnings.map((w) => w.kind))].join(", ")}`);
  const total = totals.get(group) ?? {
    total: 0,
    strict: 0,
    lenient: 0,
    extra: 0,
    triggers: 0,
    sameTriggers: 0,
    metaAgree: 0,
    metaTotal: 0,
    disagreements: 0,
    flagged: 0,
    alarms: 0,
    agreeing: 0,
    handAlarms: 0,
    handRules: 0,
  };
  if (agreement) {
    total.metaAgree += agreement.metaAgree;
    total.metaTotal += agreement.metaTotal;
    total.disagreements += disagreements.length;
    total.flagged += disagreements.filter((d) => d.flagged).length;
    total.alarms += alarms.length;
    total.agreeing += agreeing;
    total.handAlarms += handAlarms.length;
    total.handRules += reference.ir.metaBehaviors.length;
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
      ? `; rule verdicts ${t.metaAgree}/${t.metaTotal} (${Math.round((100 * t.metaAgree) / t.metaTotal)}%) agree with the labels; the preview flags ${t.flagged} of the ${t.disagreements} that disagree, and warns about ${t.alarms} of the ${t.agreeing} rules that agree everywhere (false alarms), and about ${t.handAlarms} of the ${t.handRules} rules of the hand-written judges`
      : "";
  console.log(
    `${group}: ${t.strict}/${t.total} (${pct(t.strict)}) strict, ${t.lenient}/${t.total} (${pct(t.lenient)}) lenient; ${t.extra} extra drafted check(s); triggers ${t.sameTriggers}/${t.triggers} same${verdicts}`,
  );
}
