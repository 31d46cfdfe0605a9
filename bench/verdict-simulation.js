// A simulated interview for the drafter bench (issue 25): the verdict questions a draft asks are
// answered from the hand labels, as a person who agrees with them would answer, and each answer
// is kept as a label and the rule drafted again with it, by the library path both interview front
// ends use (compiler/generate/verdicts.ts verdictAsking: withAnswer, then draftOffline on the
// question's section, spliced into the draft). Nothing here re-implements that path: the caller
// passes the library's own functions (`lib`), from dist/ in the bench and from the sources in
// test/generate/verdict-simulation.test.ts.
//
// Scoring after the answers leaves out every (sample, rule) verdict that was given or asked: the
// answer to a question is the hand label of that very verdict, so scoring on it would count the
// oracle's answer as the drafter's agreement (leakage). Each rule is drafted from its own labels
// only (synthesize.ts reads labels[sample][rule]), so an answer about one rule tells the draft of
// another nothing about that sample; its other verdicts stay scored.

/** Questions answered per rule by default; the front ends stop at MAX_VERDICT_QUESTIONS_PER_RULE (3). */
export const DEFAULT_QUESTIONS_PER_RULE = 2;

/** The key of one rule verdict on one sample. */
export const pairKey = (sample, rule) => `${sample}\u0000${rule}`;

/**
 * Answers the draft's verdict questions from `oracle(sample, ruleName)` (a verdict, or undefined
 * to skip as a person may), in the order the front ends ask them (the first open question, then
 * the questions the re-draft leaves open), at most `k` a rule.
 * Resolves with the last draft and the questions answered, in order: {sample, rule, answer, readings}.
 */
export async function askFromLabels(lib, { spec, vocabulary, samples, labels, draft, oracle, k = DEFAULT_QUESTIONS_PER_RULE }) {
  const asked = [];
  const asking = lib.verdictAsking({ spec, vocabulary, samples, labels, draft });
  if (asking === undefined) return { draft, asked };
  const perRule = new Map();
  // A skipped question is not asked again (compiler/interview/verdicts.ts VerdictSession).
  const skipped = new Set();
  let open = asking.questions;
  for (;;) {
    const question = open.find((q) => (perRule.get(q.ruleName) ?? 0) < k && !skipped.has(pairKey(q.sample, q.ruleName)));
    if (question === undefined) break;
    const answer = oracle(question.sample, question.ruleName);
    if (answer === undefined) {
      skipped.add(pairKey(question.sample, question.ruleName));
      continue;
    }
    const result = await asking.answer(question, answer);
    asked.push({ sample: question.sample, rule: question.ruleName, answer, readings: question.readings });
    perRule.set(question.ruleName, (perRule.get(question.ruleName) ?? 0) + 1);
    draft = result.draft;
    open = result.questions;
  }
  return { draft, asked };
}

/** A rule's verdict on a sample in a preview (compiler/generate/preview.ts). */
export const verdictIn = (rule, id) => (rule.rule.pass.includes(id) ? "true" : rule.rule.fail.includes(id) ? "false" : "na");

/**
 * Agreement of the judge `ir` with the hand labels of `cases`, over the samples in `scored`
 * (a Set of ids) and the rules, leaving out the (sample, rule) pairs in `left` (a Set of pairKey).
 * Returns {agree, total, pairs}: `pairs` are the keys counted, so a test can see what was scored.
 */
export function agreementOn(lib, ir, samples, cases, scored, left = new Set()) {
  const preview = lib.previewJudge(ir, samples);
  let agree = 0;
  const pairs = [];
  for (const c of cases) {
    const id = c.trajectory.id;
    if (!scored.has(id)) continue;
    for (const rule of preview.rules) {
      const key = pairKey(id, rule.name);
      if (left.has(key)) continue;
      pairs.push(key);
      if (c.expected.metaBehaviorVerdicts[rule.name] === verdictIn(rule, id)) agree++;
    }
  }
  return { agree, total: pairs.length, pairs };
}

/**
 * The interview simulated from one set of given labels: the draft made with them (`draft`), its
 * questions answered from the cases' hand labels, and agreement before and after on the samples
 * of `scored` minus every pair given or asked. Per rule: the questions asked, and for a rule asked
 * none, whether its draft fits every label given for it (synthesize.ts then looks for no other
 * reading, so there is nothing to ask) and how many scored verdicts it gets wrong.
 */
export async function simulateInterview(lib, { spec, vocabulary, samples, cases, labels, draft, scored, k }) {
  const truth = new Map(cases.map((c) => [c.trajectory.id, c.expected.metaBehaviorVerdicts]));
  const oracle = (sample, rule) => truth.get(sample)?.[rule];
  const { draft: after, asked } = await askFromLabels(lib, { spec, vocabulary, samples, labels, draft, oracle, k });
  const left = new Set(asked.map((q) => pairKey(q.sample, q.rule)));
  for (const [sample, verdicts] of Object.entries(labels)) for (const rule of Object.keys(verdicts)) left.add(pairKey(sample, rule));
  const before = agreementOn(lib, draft.ir, samples, cases, scored, left);
  const now = agreementOn(lib, after.ir, samples, cases, scored, left);
  // Per question: whether the draft's reading was the answer, and whether the last draft says it.
  const last = lib.previewJudge(after.ir, samples);
  for (const q of asked) {
    q.draftRight = q.readings.draft === q.answer;
    q.finalRight =
      verdictIn(
        last.rules.find((r) => r.name === q.rule),
        q.sample,
      ) === q.answer;
  }
  const preview = lib.previewJudge(draft.ir, samples);
  const rules = preview.rules.map((rule) => {
    const questions = asked.filter((q) => q.rule === rule.name).length;
    const given = Object.entries(labels).filter(([, v]) => v[rule.name] !== undefined);
    const fitsEvery = given.length > 0 && given.every(([id, v]) => v[rule.name] === verdictIn(rule, id));
    const wrong = cases.filter((c) => {
      const id = c.trajectory.id;
      return scored.has(id) && !left.has(pairKey(id, rule.name)) && c.expected.metaBehaviorVerdicts[rule.name] !== verdictIn(rule, id);
    }).length;
    return { name: rule.name, questions, fitsEvery, wrong };
  });
  return { asked, before, after: now, rules, draft: after };
}
