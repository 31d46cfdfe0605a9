/** What the voice tests share (voice.test.ts, voice-forms.test.ts, voice-letters.test.ts): sessions built from steps, a one-rule spec drafted with no labels, read without its quotes, and the three claims each voice must meet. */
import { expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { draftOffline } from "../../compiler/generate/offline/draft.js";
import { previewJudge } from "../../compiler/generate/preview.js";
import { buildVocabulary } from "../../compiler/generate/vocabulary.js";
import type { Trajectory } from "../../runtime/types.js";

/** One event of a test session: actor, action, and its metadata and content when it has them. */
export type Step = [Trajectory["events"][number]["actor"], string, (Record<string, string> | undefined)?, string?];

/** A maker of sessions from steps: ids `<prefix>1`, `<prefix>2`, … and events `e1`, `e2`, … in order. */
export function sessions(prefix: string): (...events: Step[]) => Trajectory {
  let n = 0;
  return (...events) => ({
    id: `${prefix}${++n}`,
    description: "",
    complete: true,
    events: events.map(([actor, action, metadata, content], i) => ({
      id: `e${i + 1}`,
      actor,
      action,
      ...(metadata ? { metadata } : {}),
      ...(content ? { content } : {}),
    })),
  });
}

/** Drafts `spec(body)` (a spec of one rule) on `samples`: the rule, its verdicts on them, and the section's text. */
export function drafter(spec: (body: string) => string, samples: Trajectory[]) {
  const vocabulary = buildVocabulary(samples);
  const drafted = (body: string) => {
    const parsed = parseBehaviorMd(spec(body));
    if (!parsed.ok) throw new Error("spec does not parse");
    const draft = draftOffline({ spec: parsed.spec, vocabulary, samples });
    const rule = draft.ir.metaBehaviors[0]!;
    const verdicts = previewJudge(draft.ir, samples).rules[0]!.rule;
    return { rule, verdicts, section: parsed.spec.sections[0]!.body };
  };
  /** What a draft says, without the words it quotes. */
  const reading = (body: string) => {
    const { rule, verdicts } = drafted(body);
    return {
      trigger: rule.trigger.match,
      checks: rule.checks.map(({ quote: _, ...check }) => check),
      questions: rule.semanticChecks.length,
      fail: verdicts.fail,
    };
  };
  return { drafted, reading };
}

/**
 * For each case, its canonical wording drafts checks that fail some sample and ask no question, each
 * voice drafts what the canonical wording does, and each voice's quotes are words of its section
 * (with `spaced`, compared with runs of white space made one, for quotes over two sentences).
 */
export function voicesReadAlike(
  { drafted, reading }: ReturnType<typeof drafter>,
  cases: [string, string, string[]][],
  spaced = (text: string) => text,
): void {
  for (const [what, canonical, voices] of cases) {
    const expected = reading(canonical);
    it(`${what}: the canonical voice is read deterministically (${canonical})`, () => {
      expect(expected.checks.length).toBeGreaterThan(0);
      expect(expected.questions).toBe(0);
      expect(expected.fail.length).toBeGreaterThan(0);
    });
    it.each(voices)(`${what}: %j is read as the canonical voice is`, (body) => {
      expect(reading(body)).toEqual(expected);
    });
    it.each(voices)(`${what}: the quotes of %j are the spec's own words`, (body) => {
      const { rule, section } = drafted(body);
      for (const clause of [...rule.checks, ...rule.semanticChecks]) expect(spaced(section)).toContain(clause.quote);
    });
  }
}
