#!/usr/bin/env node
// The offline drafter with and without labels (issue 25), per spec and for the blind specs apart.
//
//   npm run build:cli && node bench/offline-drafter-labels.js [--only] [--questions K] [FOLDER ...]
//
// Each FOLDER (relative to the repository or absolute) is one more group, reported after the
// built-in ones: a folder of spec folders (each with BEHAVIOR.md and trajectories/*.json
// labeled cases), or one spec folder. `--only` reports the given folders alone, e.g.
// `node bench/offline-drafter-labels.js --only test/fixtures/blind2`.
//
// Per spec: rule-verdict agreement of the draft accepted as proposed with the hand labels, given
// no labels; the same by cross-validation, the labels of half the cases given (even or odd
// positions) and agreement counted on the other half, both halves summed; rules exactly right
// (every case agrees), with no labels and with half of them (every held-out case agrees, in both
// halves); obligations the draft leaves without a clause and with a
// notice (uncovered-sentence notes); swaps (a check whose quote writes an action in backticks
// that none of its patterns uses, as an action or as a metadata value); and the slowest rule's drafting time with labels on 50 samples (the search
// is bounded; the issue asks under 2 s per rule for 50 samples). Verdicts come from previewJudge,
// which runs the checks' generated code (test/generate/preview.test.ts).
//
// A second table per group, never added into the columns above, simulates the interview's verdict
// questions (bench/verdict-simulation.js): the person answers each question the draft asks from the
// hand labels, the answer is kept as a label and the rule drafted again, by the library path both
// front ends use (verdictAsking), at most K questions a rule (`--questions K`, 2 by default; the
// front ends stop at 3). Per spec: the questions answered, with in parentheses those on which the
// draft's own reading was not the answer; agreement before the answers → after them, from no labels
// and from half the labels (both halves summed), counted only on the verdicts neither given nor
// asked about: an asked verdict's answer is its hand label, so scoring it would count the oracle as
// the drafter (leakage). Each rule is drafted from its own labels only, so a sample asked about for
// one rule stays scored for the others. The draft with no labels asks where a reading the rule's
// words support judges a sample otherwise (compiler/generate/offline/rivals.ts); with labels, a rule whose draft fits every label given looks for no other
// reading either (synthesize.ts), so asks nothing: the last columns count those rule-halves and the
// held-out verdicts they get wrong.
//
// test/fixtures/blind/ holds three specs written and labeled before the drafter was run on them
// (d301d09). Measured then, with the drafter of main at 97560d2 and no labels: repo-assistant
// 49/60, home-guardian 42/60, interview-scheduler 57/60, together 148/180 (82%). Their drafts were
// looked at after that measurement, while items 1 and 2 of issue 25 were made (backticked names
// and values, outcome sub-clauses); the search from labels was written without tuning it on them.
// test/fixtures/blind2/ holds three more (wire-desk, sample-custody, pharmacy-refills), committed
// (eb4a984, 167a008, 053fd33) before the drafter was run on them. Measured then with the drafter of
// dba2efe: 106/180 (59%) with no labels, 156/180 (87%) with half, 4/15 rules exactly right; per
// spec in its README. test/fixtures/blind3/ holds a third (aircraft-release, claims-desk,
// access-requests), committed (49f5230, 64a52a7, c12963d) before the drafter was run on them;
// measured then with the drafter of 8b9c8cd: 85/180 (47%) with no labels, 135/180 (75%) with half.
// From 5 December 2026 (issue 25, h/drafter) blind2 and blind3 are development sets: their drafts
// and disagreements were diagnosed and the drafter changed with them in view; their figures are
// in-sample from then on (docs/AUTHORING.md "How well it drafts").
// test/fixtures/blind4/ holds a fourth (grid-switching, archive-loans, payroll-corrections),
// committed (7f1bdf4, 7103004, a7710bd) by a helper who never read or ran the drafter; measured
// then with the drafter of 7f6ee58: 111/180 (62%) with no labels, 134/180 (74%) with half. From
// that session on, blind2 and blind3 were read and tuned on; measured again after those changes
// (drafter of 6914599): 125/180 (69%) with no labels, 134/180 (74%) with half. blind4 was then the held-out set, not in
// the default groups so that nobody tuning the drafter sees its figures; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind4`.
// test/fixtures/blind5/ holds a fifth (berth-allocation, student-records, permit-desk), committed
// (82325c8, 5ea8c92, 3a96e1f) on 2026-12-06 by a helper who never read or ran the drafter; measured
// with the drafter of 6914599 (154/180 no labels, 151/180 half) and after that session's changes
// (7a1028e: 148/180, 147/180; blind4 128/180, 140/180). It was held out as blind4 was, not in the
// default groups; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind5`.
// From the second session of 6 December 2026 blind4 and blind5 are development sets (their drafts
// and disagreements were read and the drafter changed with them in view), in the default groups.
// test/fixtures/blind6/ holds a sixth (shutoff-desk, relocation-desk, randomization-desk),
// committed (35f5274, a03808c, bb5570d, 1954d87) that session by a helper who never read or ran the
// drafter, and measured before any change of that session with the drafter of 87f152e: 129/180 (72%)
// with no labels, 147/180 (82%) with half. It is the held-out set now, not in the default groups;
// measure it with `node bench/offline-drafter-labels.js --only test/fixtures/blind6`.
// From the third session of 6 December 2026 blind6 is a development
// set, in the default groups. test/fixtures/blind7/ holds a seventh (vet-dispensary,
// blood-issue-desk, snow-safety-desk), committed (f1ed0d5, b44122b, 9adbcd2, b208746) by a helper
// who never read or ran the drafter, and measured before any change of that session with the
// drafter of b894f68: 132/180 (73%) with no labels, 149/180 (83%) with half. It is the held-out
// set now, not in the default groups; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind7`.
// From the fourth session of 6 December 2026 blind7 is a development set, in the default groups.
// test/fixtures/blind8/ holds an eighth (possession-desk, loan-registrar, payout-office),
// committed (cc4a1e7, 258a7dd, 9396540, ea59e8d) by a helper who never read or ran the drafter,
// and measured before any change of that session with the drafter of b7ff443: 129/180 (72%) with
// no labels, 152/180 (84%) with half. It is the held-out set now, not in the default groups;
// measure it with `node bench/offline-drafter-labels.js --only test/fixtures/blind8`.
// From the fifth session of 6 December 2026 blind8 is a development set, in the default groups.
// test/fixtures/blind9/ holds a ninth (crane-desk, waste-gatehouse, dive-marshal), committed
// (ea36f10, a333c8a, 9c622f3, 3dcf818) by a helper who never read or ran the drafter, and measured
// before any change of that session with the drafter of 5d813b3: 147/180 (82%) with no labels,
// 148/180 (82%) with half, and after that session's changes (ee81d3d): 153/180 (85%) with no labels,
// 152/180 (84%) with half. It is the held-out set now, not in the default groups; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind9`.
// From the sixth session of 6 December 2026 blind9 is a development set, in the default groups.
// test/fixtures/blind10/ holds a tenth (grain-intake, pawn-counter, prop-armory), committed
// (fa1cd26, cdf85ba, 622ef76, 26b458b) by a helper who never read or ran the drafter, and measured
// before any change of that session with the drafter of 4463665: 129/180 (72%) with no labels,
// 144/180 (80%) with half, and after that session's changes (9e35a0e): 129/180 (72%) with no
// labels, 145/180 (81%) with half. It is the held-out set now, not in the default groups; measure
// it with `node bench/offline-drafter-labels.js --only test/fixtures/blind10`.
// From the seventh session of 6 December 2026 blind10 is a development set, in the default groups.
// test/fixtures/blind11/ holds an eleventh (ferry-deck, seed-bank, exhibit-room: a checklist, an
// FAQ and a numbered standing order), committed (42a2aa1, effa4b9, aa180f9, 4e33b5f) by a helper
// who never read or ran the drafter, and measured before any change of that session with the
// drafter of 3f24c48: 125/180 (69%) with no labels, 138/180 (77%) with half, and after that
// session's changes (c885d81): 142/180 (79%) with no labels, 147/180 (82%) with half. It is the
// held-out set now, not in the default groups; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind11`.
// From the eighth session of 6 December 2026 blind11 is a development set, in the default groups.
// test/fixtures/blind12/ holds a twelfth (fuel-dock, key-control, media-destruction: a manager's
// e-mail, a contract schedule and a runbook), committed (2716496, a49f76a, f440443, 45b47da, f3ca9ef)
// by a helper who never read or ran the drafter, and measured before any change of that session
// with the drafter of 5086244: 114/180 (63%) with no labels, 135/180 (75%) with half, and after
// that session's merges: 131/180 (73%) with no labels, 150/180 (83%) with half. It is the held-out
// set now, not in the default groups; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind12`.
// From the first session of 7 December 2026 blind12 is a development set, in the default groups.
// test/fixtures/blind13/ holds a thirteenth (tow-dispatch, balloon-launch, adoption-desk: a
// regulator's notice, a chat thread and a welcome letter), committed (9388c77, 9d1c63c, 734b022,
// fbf435a) by a helper who never read or ran the drafter, and measured before any change of that
// session with the drafter of de1a379: 118/180 (66%) with no labels, 137/180 (76%) with half, and
// after that session's merges (3184e47): 126/180 (70%) with no labels, 151/180 (84%) with half. It
// is the held-out set now, not in the default groups; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind13`.
// From the second session of 7 December 2026 blind13 is a development set, in the default groups.
// test/fixtures/blind14/ holds a fourteenth (casino-cage, fish-landing, crematory: an internal
// audit's findings, an interview transcript and a service promise to families), committed (dbb0d0c,
// 6b61349, a8bc760, 295cc2d, with subjects that name no rule) by a helper who never read or ran the
// drafter, in voices given to that helper only, and measured before any change of that session with
// the drafter of 2f06bd1: 123/180 (68%) with no labels, 142/180 (79%) with half, and after that
// session's merges (7f2b7d6): 142/180 (79%) with no labels, 154/180 (86%) with half. It is the
// held-out set now, not in the default groups; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind14`.
// From the third session of 7 December 2026 blind14 is a development set, in the default groups.
// test/fixtures/blind15/ holds a fifteenth (writ-enforcement, stage-crew-calls, tattoo-studio: a
// court's order, a clause of a union agreement and an app's release notes), committed (651766f,
// bddf252, 20a4d2c, 6e18b58, with subjects that name no rule) by a helper who never read or ran the
// drafter, in voices given to that helper only, and measured before any change of that session with
// the drafter of 3b94e36: 117/180 (65%) with no labels, 141/180 (78%) with half, and after that
// session's merges (6baf587): 118/180 (66%) with no labels, 143/180 (79%) with half. It is the
// held-out set now, not in the default groups; measure it with
// `node bench/offline-drafter-labels.js --only test/fixtures/blind15`.
// From the end of the third session of 7 December 2026 (after that measure) blind15 is a development
// set, in the default groups: the next held-out set measures what carries over.
// test/fixtures/blind16/ holds a sixteenth (tool-hire-counter, vineyard-spraying, isotope-stores: a
// laminated quick-reference card, a committee's minutes and a thread of e-mails correcting each
// other), committed (a5d9cdb, dd6a1c8, 5e742a2, a05cbd3, with subjects that name no rule) by a helper
// who never read or ran the drafter, in voices given to that helper only, and measured before any
// change of the fourth session of 7 December 2026 with the drafter of fba01e6: 117/180 (65%) with no
// labels, 148/180 (82%) with half, and after that session's merges (44f2103): 118/180 (66%) with no
// labels, 148/180 (82%) with half. From the end of that session (after that measure) blind16 is a
// development set, in the default groups.
// test/fixtures/blind17/ holds a seventeenth (research-ship-watch, donor-milk-issue,
// mill-restoration-grant: a master's standing orders, a protocol written as a flowchart, a funder's
// grant conditions), committed (ff14f4f, 44a8216, e9f5c94, dff2071) the same way and measured before
// any change of the fifth session of 7 December 2026 with the drafter of 61362ef: 87/180 (48%) with
// no labels, 156/180 (87%) with half; after that session's merges: 70/180 (39%) and 156/180 (87%);
// after a fix made once that measure was seen (a flowchart's questions, context.ts): 89/180 and
// 157/180. From the end of that session blind17 is a development set, in the default groups.
// test/fixtures/blind18/ holds an eighteenth (trampoline-park, flag-rollouts, hill-farm-handover: a
// franchise's operations manual, a chat-ops runbook with /commands, a farmer's handover note to a
// relief shepherd), committed (76186cb, f0ba004, f282013, 569b8e2) the same way and measured before
// any change of the sixth session of 7 December 2026 with the drafter of c7b2cd8: 97/180 (54%) with
// no labels, 148/180 (82%) with half; after that session's merges (5b0b76e): 97/180 (54%) and
// 158/180 (88%). From the end of that session blind18 is a development set, in the default groups.
// test/fixtures/blind19/ holds a nineteenth (parcel-lockers, nut-free-bakehouse, pool-plant-room: a
// product ticket's acceptance criteria, recipe cards, a training deck's slide notes), committed
// (ccea9ad, 7b1291f, 6184a5d, 9607f18) the same way and measured before any change of the seventh
// session of 7 December 2026 with the drafter of c4168cd: 115/180 (64%) with no labels, 150/180 (83%)
// with half; after that session's merges (8db9934): 115/180 (64%) and 154/180 (86%). From the end of
// that session blind19 is a development set, in the default groups.
// test/fixtures/blind20/ holds a twentieth (linen-service, bascule-bridge, teaching-apiary: a
// contract's service schedule, a shift-handover log, a Do / Don't list), committed (b7b905b,
// 9d1b18f, 9b1b1cd, 4567d4d) the same way and measured before any change of the eighth session of
// 7 December 2026 with the drafter of a7dcb10: 107/180 (59%) with no labels, 152/180 (84%) with
// half; after that session's merges (32053b1): 117/180 (65%) and 153/180 (85%). From the end of that
// session blind20 is a development set, in the default groups.
// test/fixtures/blind21/ holds a twenty-first (laser-room, gritting-depot, boarding-kennels: a
// volunteer rota's house rules, an incident post-mortem's actions list, a regulator's guidance that
// tells "must" from "should"), committed (bf51d9b, 3ba916b, 6e38788, e55b935) the same way and
// measured before any change of the ninth session of 7 December 2026 with the drafter of bafe029:
// 112/180 (62%) with no labels, 147/180 (82%) with half; after that session's merges (f9016de):
// 126/180 (70%) and 147/180 (82%). From the end of that session blind21 is a development set, in
// the default groups.
// test/fixtures/spec/held-out-2026-12/ was written by the helper who then changed the drafter,
// after reading it and before changing it, and measured before and after (its README).
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_QUESTIONS_PER_RULE, simulateInterview } from "./verdict-simulation.js";
import { casesOf, defaultGroups, ruleAgreement, specFolders as under, loadDrafter } from "./common.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = (path) => import(join(root, "dist", path));
const { parseBehaviorMd, buildVocabulary, draftOffline, previewJudge, validateTrajectory } = await loadDrafter();
const { verdictAsking } = await dist("compiler/generate/verdicts.js");
const lib = { verdictAsking, previewJudge };

const args = process.argv.slice(2);
const only = args.includes("--only");
// `--questions K` (or `--questions=K`): verdict questions answered per rule in the simulated interview.
let k = DEFAULT_QUESTIONS_PER_RULE;
const folders = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--only") continue;
  if (a === "--questions" || a.startsWith("--questions=")) {
    const value = a === "--questions" ? args[++i] : a.slice("--questions=".length);
    k = Number(value);
    if (!Number.isInteger(k) || k < 0)
      throw new Error(`--questions: expected a whole number of questions per rule, got ${JSON.stringify(value)}`);
    continue;
  }
  folders.push(a);
}
const groups = [
  ...(only ? [] : defaultGroups()),
  ...folders.map((folder) => [relative(root, isAbsolute(folder) ? folder : join(root, folder)) || folder, under(folder)]),
];

const agreement = (ir, samples, cases, ids) => ruleAgreement(previewJudge, ir, samples, cases, ids);

function swaps(ir, samples) {
  // A name the samples show as a metadata key or value (`beneficiary_id`) is no action to swap.
  const keys = new Set(samples.flatMap((t) => t.events.flatMap((e) => Object.entries(e.metadata ?? {}).flat())));
  let n = 0;
  for (const rule of ir.metaBehaviors)
    for (const check of rule.checks) {
      const written = [...check.quote.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)].map((m) => m[1]).filter((name) => !keys.has(name));
      // The actions the check's matchers test: one name, or each of an `{in: [...]}` list.
      const used = new Set();
      JSON.stringify(check, (key, value) => {
        if (key === "action") for (const a of typeof value === "string" ? [value] : (value?.in ?? [])) used.add(a);
        return value;
      });
      // A name the check tests as a metadata value (`city_project` in `reason: {in: [...]}`) is read
      // as written, not swapped, even when no sample shows it.
      const values = new Set();
      const walk = (node, inMetadata) => {
        if (typeof node === "string") {
          if (inMetadata) values.add(node);
        } else if (node !== null && typeof node === "object")
          for (const [k, v] of Object.entries(node)) walk(v, inMetadata || k === "metadata");
      };
      walk(check, false);
      if (written.some((name) => !used.has(name) && !used.has(`${name}_result`) && !values.has(name))) n++;
    }
  return n;
}

const pct = (a, b) => `${Math.round((100 * a) / b)}%`;
for (const [group, dirs] of groups) {
  const t = {
    none: 0,
    cv: 0,
    total: 0,
    exact: 0,
    cvExact: 0,
    rules: 0,
    uncovered: 0,
    swaps: 0,
    slowest: 0,
    slowestCpu: 0,
    slowestRule: "",
  };
  const asking = [];
  console.log(group);
  console.log(
    "  spec                     no labels     half labels   exactly right  (half labels)  not covered  swaps  slowest rule (50 samples)",
  );
  for (const dir of dirs) {
    const spec = parseBehaviorMd(readFileSync(join(dir, "BEHAVIOR.md"), "utf8")).spec;
    const cases = casesOf(dir);
    const samples = cases.map((c) => validateTrajectory(c.trajectory));
    const vocabulary = buildVocabulary(samples);
    const all = new Set(cases.map((c) => c.trajectory.id));
    const plain = draftOffline({ spec, vocabulary, samples });
    const none = agreement(plain.ir, samples, cases, all);
    let cv = 0;
    let slowest = 0;
    let slowestCpu = 0;
    let slowestRule = "";
    const cvWrong = new Set();
    // The simulated interview (verdict-simulation.js), from no labels and from each half; reported apart.
    const context = { spec, vocabulary, samples, cases, k };
    const fromNone = await simulateInterview(lib, { ...context, labels: {}, draft: plain, scored: all });
    const fromHalf = [];
    for (const half of [0, 1]) {
      const given = cases.filter((_, i) => i % 2 === half);
      const held = new Set(cases.filter((_, i) => i % 2 !== half).map((c) => c.trajectory.id));
      const labels = Object.fromEntries(given.map((c) => [c.trajectory.id, c.expected.metaBehaviorVerdicts]));
      const drafted = draftOffline({ spec, vocabulary, samples, labels });
      const found = agreement(drafted.ir, samples, cases, held);
      cv += found.agree;
      for (const name of found.wrong) cvWrong.add(name);
      fromHalf.push(await simulateInterview(lib, { ...context, labels, draft: drafted, scored: held }));
    }
    asking.push({ name: spec.name, none: fromNone, half: fromHalf });
    // Time per rule on 50 samples (the spec's cases repeated under new ids), half of them labeled.
    const fifty = Array.from({ length: 50 }, (_, k) => {
      const c = cases[k % cases.length];
      return { ...c, trajectory: { ...c.trajectory, id: `${c.trajectory.id}~${k}` } };
    });
    const fiftySamples = fifty.map((c) => validateTrajectory(c.trajectory));
    const fiftyLabels = Object.fromEntries(
      fifty.filter((_, i) => i % 2 === 0).map((c) => [c.trajectory.id, c.expected.metaBehaviorVerdicts]),
    );
    const fiftyVocabulary = buildVocabulary(fiftySamples);
    for (const section of spec.sections) {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      draftOffline({ spec, vocabulary: fiftyVocabulary, samples: fiftySamples, labels: fiftyLabels }, [section]);
      const took = performance.now() - start;
      // CPU time (user + system) beside the wall time: on a shared machine the wall time of one rule
      // grows with the load average, its CPU time much less, and the goal (under 2 s) is for a quiet one.
      const cpu = process.cpuUsage(cpuStart);
      if (took > slowest) [slowest, slowestCpu, slowestRule] = [took, (cpu.user + cpu.system) / 1000, section.heading];
    }
    const uncovered = plain.notes.filter((n) => n.kind === "uncovered-sentence").length;
    const swapped = swaps(plain.ir, samples);
    console.log(
      `  ${spec.name.padEnd(24)} ${`${none.agree}/${none.total}`.padEnd(13)} ${`${cv}/${none.total}`.padEnd(13)} ${`${none.exact}/${none.rules}`.padEnd(14)} ${`${none.rules - cvWrong.size}/${none.rules}`.padEnd(14)} ${String(uncovered).padEnd(12)} ${String(swapped).padEnd(6)} ${Math.round(slowest)} ms (CPU ${Math.round(slowestCpu)} ms)`,
    );
    t.none += none.agree;
    t.cv += cv;
    t.total += none.total;
    t.exact += none.exact;
    t.cvExact += none.rules - cvWrong.size;
    if (slowest > t.slowest) [t.slowest, t.slowestCpu, t.slowestRule] = [slowest, slowestCpu, `${spec.name}: ${slowestRule}`];
    t.rules += none.rules;
    t.uncovered += uncovered;
    t.swaps += swapped;
  }
  console.log(
    `  ${"all".padEnd(24)} ${`${t.none}/${t.total} ${pct(t.none, t.total)}`.padEnd(13)} ${`${t.cv}/${t.total} ${pct(t.cv, t.total)}`.padEnd(13)} ${`${t.exact}/${t.rules}`.padEnd(14)} ${`${t.cvExact}/${t.rules}`.padEnd(14)} ${String(t.uncovered).padEnd(12)} ${String(t.swaps).padEnd(6)} ${Math.round(t.slowest)} ms (CPU ${Math.round(t.slowestCpu)} ms; ${t.slowestRule})`,
  );
  reportAsking(asking);
}

/**
 * The simulated interview's table, apart from the one above (its figures are never added to those
 * columns): per spec, the verdict questions answered from the hand labels (at most k a rule) and
 * agreement on the verdicts neither given nor asked, before the answers → after them; from no
 * labels, and from half the labels (both halves summed). Rules asked nothing with half the labels:
 * how many of the rule-halves fit every label given (so no other reading was looked for), and the
 * held-out verdicts those got wrong.
 */
function reportAsking(rows) {
  const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);
  const figures = (name, row) => {
    const half = {
      asked: sum(row.half, (h) => h.asked.length),
      wrongThere: sum(row.half, (h) => h.asked.filter((q) => !q.draftRight).length),
      before: sum(row.half, (h) => h.before.agree),
      after: sum(row.half, (h) => h.after.agree),
      total: sum(row.half, (h) => h.after.total),
    };
    const rules = row.half.flatMap((h) => h.rules);
    const quiet = rules.filter((r) => r.questions === 0);
    const fits = quiet.filter((r) => r.fitsEvery);
    return {
      name,
      none: {
        asked: row.none.asked.length,
        wrongThere: row.none.asked.filter((q) => !q.draftRight).length,
        before: row.none.before.agree,
        after: row.none.after.agree,
        total: row.none.after.total,
      },
      half,
      ruleHalves: rules.length,
      quiet: quiet.length,
      fits: fits.length,
      fitsWrongRules: fits.filter((r) => r.wrong > 0).length,
      fitsWrong: sum(fits, (r) => r.wrong),
    };
  };
  const line = (f, total) => {
    const moved = (x) => `${x.before} → ${x.after}/${x.total}${total ? ` ${pct(x.after, x.total)}` : ""}`;
    const asked = (x) => `${x.asked} (${x.wrongThere})`;
    console.log(
      `  ${f.name.padEnd(24)} ${asked(f.none).padEnd(9)} ${moved(f.none).padEnd(20)} ${asked(f.half).padEnd(9)} ${moved(f.half).padEnd(20)} ${`${f.quiet}/${f.ruleHalves}`.padEnd(13)} ${`${f.fits} (${f.fitsWrongRules} wrong on ${f.fitsWrong})`}`,
    );
  };
  console.log(
    `  simulated interview: verdict questions answered from the hand labels, at most ${k} a rule; agreement on the verdicts neither given nor asked`,
  );
  console.log("                           from no labels                 from half labels               rule-halves asked none");
  console.log(
    "  spec                     asked     before → after       asked     before → after       all           fitting every label given",
  );
  const all = rows.map((row) => figures(row.name, row));
  for (const f of all) line(f, false);
  const keys = ["asked", "wrongThere", "before", "after", "total"];
  const add = (part) => Object.fromEntries(keys.map((key) => [key, sum(all, (f) => f[part][key])]));
  line(
    {
      name: "all",
      none: add("none"),
      half: add("half"),
      ruleHalves: sum(all, (f) => f.ruleHalves),
      quiet: sum(all, (f) => f.quiet),
      fits: sum(all, (f) => f.fits),
      fitsWrongRules: sum(all, (f) => f.fitsWrongRules),
      fitsWrong: sum(all, (f) => f.fitsWrong),
    },
    true,
  );
}
