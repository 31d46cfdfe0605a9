/**
 * `warm()` (runtime/warm.ts, docs/MONITOR.md "Warming up"): a judge warmed
 * before use answers byte for byte as one that was not, for every call of a
 * monitor (check, push, pending, end with a model) and for judgeTrajectory;
 * a monitor made before `warm` is not touched by it; no model adapter is
 * called; no synthetic event reaches any result. And the samples it runs on
 * reach the rules: each matcher that names its values literally has a sample
 * it matches. Timing is bench/guard.js's business, not this file's.
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, test } from "vitest";
import { compileIR } from "../../compiler/build/compile.js";
import { warmSamples } from "../../compiler/codegen/warm.js";
import type { JudgeIR, Matcher, ValueMatcher } from "../../compiler/ir/types.js";
import type { BuiltJudge } from "../../compiler/run/load.js";
import type { ChatMessage } from "../../runtime/semantic.js";
import type { Trajectory } from "../../runtime/types.js";
import { mulberry32, randomCase, type Rng } from "../oracle/random.js";
import { randomExtendedIr, randomExtendedTrajectory } from "../oracle/random-extended.js";
import { valueHolds } from "../oracle/values.js";
import { SEED } from "../support/differential.js";
import { EXTENDED_SEED, throughYaml } from "../support/differential-extended.js";
import { importBundled } from "../support/judges.js";

const BASIC_JUDGES = 24;
const EXTENDED_JUDGES = 16;
const TRAJECTORIES = 8;

interface Case {
  ir: JudgeIR;
  source: string;
  trajectories: Trajectory[];
}

function basicCases(): Case[] {
  const rng = mulberry32(SEED);
  return Array.from({ length: BASIC_JUDGES }, (_, index) => {
    const { ir } = randomCase(rng, index);
    const trajectories = Array.from({ length: TRAJECTORIES }, (_, t) => randomCase(rng, index * TRAJECTORIES + t).trajectory);
    return { ir, source: JSON.stringify(ir), trajectories };
  });
}

function extendedCases(): Case[] {
  const rng = mulberry32(EXTENDED_SEED);
  return Array.from({ length: EXTENDED_JUDGES }, (_, index) => {
    const { ir, yaml } = throughYaml(randomExtendedIr(rng));
    const trajectories = Array.from({ length: TRAJECTORIES }, (_, t) => randomExtendedTrajectory(rng, `case-${index}-${t}`));
    return { ir, source: yaml, trajectories };
  });
}

/** Deterministic model answers (a hash of the prompt picks the verdict); records every prompt. */
function scriptedModel(prompts: string[]) {
  return async (messages: ChatMessage[]): Promise<string> => {
    const text = messages.map((m) => `${m.role}: ${m.content}`).join("\n");
    prompts.push(text);
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
    const verdict = (["true", "false", "na"] as const)[hash % 3]!;
    return JSON.stringify({
      verdict,
      na_reason: verdict === "na" ? "insufficient_evidence" : null,
      reasoning: "scripted",
      citations: [],
    });
  };
}

/** Everything a monitor says while `events` are pushed, each check (of the event, and of a stranger) and pending() included. */
function session(monitor: ReturnType<BuiltJudge["createMonitor"]>, events: readonly object[], strangers: readonly object[]): string[] {
  const said: string[] = [];
  events.forEach((event, k) => {
    said.push(JSON.stringify(monitor.check(strangers[k % strangers.length]!)));
    said.push(JSON.stringify(monitor.check(event)));
    said.push(JSON.stringify(monitor.push(event)));
    said.push(JSON.stringify(monitor.pending()));
  });
  return said;
}

/** Events of another trajectory under ids no trajectory uses: checked, never pushed. */
function strangersFor(trajectories: readonly Trajectory[], rng: Rng): object[] {
  const pool = trajectories.flatMap((t) => t.events);
  return Array.from({ length: 7 }, (_, k) => ({ ...pool[Math.floor(rng() * pool.length)]!, id: `stranger-${k}` }));
}

/**
 * The same events as other hosts write them: fields in another order, `metadata: null` for none,
 * metadata in a null-prototype object (a copy a host keeps) or with its values as numbers where
 * they are numbers, and ids that come in no order (so a monitor proves them new with a Set). The
 * runtime's functions that read events and prove ids new are optimized while warming, on the
 * shapes warming shows them: whatever shape comes after, the answers must be the same.
 */
function asOtherHosts(events: readonly object[], trajectory: number): object[] {
  return events.map((raw, k) => {
    const { id, actor, action, content, metadata } = raw as Record<string, unknown>;
    const shuffledId = `${"x".repeat(((k * 7 + trajectory) % 5) + 1)}${(k * 13) % 17}-${k}`;
    const meta = metadata as Record<string, unknown> | undefined;
    switch ((k + trajectory) % 4) {
      case 0:
        return { metadata, content, action, actor, id: shuffledId };
      case 1:
        return { id: shuffledId, actor, action, ...(content === undefined ? {} : { content }), metadata: meta ?? null };
      case 2: {
        const copy = meta === undefined || meta === null ? undefined : Object.assign(Object.create(null) as object, meta);
        return { id: shuffledId, actor, action, content, metadata: copy };
      }
      default: {
        const numbers = meta === undefined || meta === null ? undefined : { ...meta };
        for (const key of Object.keys(numbers ?? {})) {
          const value = numbers![key];
          if (typeof value === "string" && value !== "" && !Number.isNaN(Number(value))) numbers![key] = Number(value);
        }
        return numbers === undefined ? { id: shuffledId, actor, action } : { id: shuffledId, actor, action, metadata: numbers };
      }
    }
  });
}

/** Strangers under short ids, which sort before every id of a session: a monitor searches for them. */
function shortStrangers(strangers: readonly object[]): object[] {
  return strangers.map((stranger, k) => ({ ...stranger, id: `s${k}` }));
}

interface Tally {
  judges: number;
  calls: number;
  violations: number;
  prompts: number;
  warmed: number;
  reshaped: number;
}

/** One judge loaded twice (two module instances): `warm` called on one only, every answer compared. */
async function compare({ ir, source, trajectories }: Case, rng: Rng, tally: Tally): Promise<void> {
  const compiled = await compileIR(ir, source, { typeCheck: false });
  const cold = await importBundled(compiled);
  const warmed = await importBundled(compiled);
  const strangers = strangersFor(trajectories, rng);

  // A monitor made and half fed before `warm`, with a model: warm touches neither it nor its model.
  const [first] = trajectories;
  const header = { id: first!.id, description: first!.description };
  const half = Math.floor(first!.events.length / 2);
  const coldPrompts: string[] = [];
  const warmPrompts: string[] = [];
  const coldEarly = cold.createMonitor(header, { complete: scriptedModel(coldPrompts) });
  const warmEarly = warmed.createMonitor(header, { complete: scriptedModel(warmPrompts) });
  expect(session(warmEarly, first!.events.slice(0, half), strangers)).toEqual(session(coldEarly, first!.events.slice(0, half), strangers));
  const pushed = warmed.warm();
  expect(pushed).toBeGreaterThan(0);
  expect(warmed.warm()).toBe(0);
  tally.warmed += pushed;
  expect(warmPrompts).toEqual([]);
  expect(session(warmEarly, first!.events.slice(half), strangers)).toEqual(session(coldEarly, first!.events.slice(half), strangers));
  const endedWarm = JSON.stringify(await warmEarly.end({ complete: first!.complete }));
  expect(endedWarm).toBe(JSON.stringify(await coldEarly.end({ complete: first!.complete })));
  expect(warmPrompts).toEqual(coldPrompts);
  expect(endedWarm).not.toMatch(/"warm-\d+"/);

  for (const trajectory of trajectories) {
    const h = { id: trajectory.id, description: trajectory.description };
    const coldSaid = session(cold.createMonitor(h), trajectory.events, strangers);
    const warmSaid = session(warmed.createMonitor(h), trajectory.events, strangers);
    expect(warmSaid).toEqual(coldSaid);
    expect(warmSaid.join("\n")).not.toMatch(/"warm-\d+"/);
    tally.calls += warmSaid.length;
    tally.violations += warmSaid.filter((s) => s.includes('"checkIndex"')).length;

    // The same session as other hosts write its events, and the judgment it ends in.
    const reshaped = asOtherHosts(trajectory.events, tally.calls);
    const [coldOther, warmOther] = [cold.createMonitor(h), warmed.createMonitor(h)];
    const otherSaid = session(warmOther, reshaped, shortStrangers(strangers));
    expect(otherSaid).toEqual(session(coldOther, reshaped, shortStrangers(strangers)));
    expect(JSON.stringify(await warmOther.end({ complete: trajectory.complete }))).toBe(
      JSON.stringify(await coldOther.end({ complete: trajectory.complete })),
    );
    tally.reshaped += otherSaid.length;

    // With a model: the same questions in the same order and the same judgment, from the monitor and from judgeTrajectory.
    const prompts = { cold: [] as string[], warm: [] as string[], coldBatch: [] as string[], warmBatch: [] as string[] };
    const coldModel = cold.createMonitor(h, { complete: scriptedModel(prompts.cold) });
    const warmModel = warmed.createMonitor(h, { complete: scriptedModel(prompts.warm) });
    for (const e of trajectory.events) {
      coldModel.push(e);
      warmModel.push(e);
    }
    const ended = JSON.stringify(await warmModel.end({ complete: trajectory.complete }));
    expect(ended).toBe(JSON.stringify(await coldModel.end({ complete: trajectory.complete })));
    const batch = JSON.stringify(await warmed.judgeTrajectory(trajectory, { complete: scriptedModel(prompts.warmBatch) }));
    expect(batch).toBe(JSON.stringify(await cold.judgeTrajectory(trajectory, { complete: scriptedModel(prompts.coldBatch) })));
    expect(prompts.warm).toEqual(prompts.cold);
    expect(prompts.warmBatch).toEqual(prompts.coldBatch);
    expect(ended + batch).not.toMatch(/"warm-\d+"/);
    tally.prompts += prompts.warm.length;
  }
  tally.judges++;
}

describe("warm()", () => {
  test(`a warmed judge answers as an unwarmed one: ${BASIC_JUDGES} random judges, and ${EXTENDED_JUDGES} of the extended language`, async () => {
    const rng = mulberry32(20261206);
    const tally: Tally = { judges: 0, calls: 0, violations: 0, prompts: 0, warmed: 0, reshaped: 0 };
    for (const c of [...basicCases(), ...extendedCases()]) await compare(c, rng, tally);
    expect(tally.judges).toBe(BASIC_JUDGES + EXTENDED_JUDGES);
    // The comparison says little unless the sessions report, and models are asked.
    expect(tally.violations).toBeGreaterThan(200);
    expect(tally.prompts).toBeGreaterThan(50);
    expect(tally.warmed).toBeGreaterThan(1000);
    expect(tally.reshaped).toBe(tally.calls);
  }, 240_000);

  test("the comparison can fail: a judge whose warm left state behind would be caught", async () => {
    // A stand-in for a warm that leaks: events pushed into the very monitor under test.
    const { ir, source, trajectories } = basicCases().find((c) => c.trajectories.some((t) => t.events.length > 3))!;
    const judge = await importBundled(await compileIR(ir, source, { typeCheck: false }));
    const trajectory = trajectories.find((t) => t.events.length > 3)!;
    const h = { id: trajectory.id, description: trajectory.description };
    const clean = judge.createMonitor(h);
    const leaky = judge.createMonitor(h);
    for (const e of trajectory.events.slice(0, 3)) leaky.push({ ...e, id: `warm-${e.id}` });
    for (const e of trajectory.events) {
      clean.push(e);
      leaky.push(e);
    }
    const a = JSON.stringify(await clean.end({ complete: true }));
    const b = JSON.stringify(await leaky.end({ complete: true }));
    expect(a).not.toBe(b);
  });

  test("warm calls no model: a judge of semantic clauses only, a monitor with a model open beside it", async () => {
    const rng = mulberry32(7);
    let calls = 0;
    const ir: JudgeIR = {
      version: 1,
      behavior: "semantic-only",
      metaBehaviors: [
        {
          name: "Polite",
          trigger: { description: "Always.", semantic: true },
          checks: [{ type: "required", quote: "it greets", match: [{ action: "greet" }] }],
          semanticChecks: [{ quote: "it is polite", question: "Is the agent polite?" }],
        },
      ],
    };
    const compiled = await compileIR(ir, JSON.stringify(ir), { typeCheck: false });
    const [judge, cold] = [await importBundled(compiled), await importBundled(compiled)];
    let coldCalls = 0;
    const answer = '{"verdict":"true","reasoning":"r","citations":[]}';
    const monitor = judge.createMonitor({ id: "s" }, { complete: async () => (calls++, answer) });
    const coldMonitor = cold.createMonitor({ id: "s" }, { complete: async () => (coldCalls++, answer) });
    const greet = { id: "e1", actor: "agent", action: "greet", content: `hello ${rng()}` };
    monitor.push(greet);
    coldMonitor.push(greet);
    expect(judge.warm()).toBeGreaterThan(0);
    expect(calls).toBe(0);
    const ended = JSON.stringify(await monitor.end({ complete: true }));
    expect(ended).toBe(JSON.stringify(await coldMonitor.end({ complete: true })));
    expect(calls).toBe(coldCalls);
    expect(calls).toBeGreaterThan(0);
  });
});

/** Whether an event with these fields satisfies the matcher (the oracle's value semantics). */
function matches(matcher: Matcher, event: { actor: string; action: string; content: string; metadata: Record<string, string> }): boolean {
  if (matcher.action !== undefined && !valueHolds(matcher.action, event.action)) return false;
  if (matcher.actor !== undefined && matcher.actor !== event.actor) return false;
  if (matcher.contentIncludes !== undefined && !event.content.includes(matcher.contentIncludes)) return false;
  if (matcher.content !== undefined && !valueHolds(matcher.content, event.content)) return false;
  for (const [key, value] of Object.entries(matcher.metadata ?? {})) {
    if (!valueHolds(value, Object.hasOwn(event.metadata, key) ? event.metadata[key] : undefined)) return false;
  }
  return true;
}

/** A value matcher whose accepted values warm.ts writes down: literal strings, lists, presence, numeric and closed date bounds. */
function writable(matcher: ValueMatcher | undefined): boolean {
  if (matcher === undefined || typeof matcher === "string") return true;
  if ("matches" in matcher || "not" in matcher) return false;
  if ("gt" in matcher || "lt" in matcher) return typeof (matcher.gt ?? matcher.lt) === "number";
  return true;
}

describe("the samples warm runs on", () => {
  test("each matcher that names its values literally has a sample it matches; the others a sample of their action", () => {
    let literal = 0;
    for (const { ir } of [...basicCases(), ...extendedCases()]) {
      const samples = warmSamples(ir.metaBehaviors).map((s) => ({
        actor: s.actor ?? "agent",
        action: s.action,
        content: s.content ?? "",
        metadata: s.metadata,
      }));
      const matchers = ir.metaBehaviors.flatMap((rule) => [
        ...(rule.trigger.match ?? []),
        ...rule.checks.flatMap((check) =>
          Object.values(check)
            .flatMap((field) => (Array.isArray(field) ? field : []))
            .filter((m): m is Matcher => typeof m === "object" && m !== null),
        ),
      ]);
      for (const matcher of matchers) {
        const fields = [matcher.action, matcher.content, ...Object.values(matcher.metadata ?? {})];
        if (fields.every(writable)) {
          literal++;
          if (!samples.some((s) => matches(matcher, s))) expect({ matcher, samples }).toBe("a sample that matches");
        } else if (typeof matcher.action === "string") {
          expect(samples.some((s) => s.action === matcher.action)).toBe(true);
        }
      }
      // Distinct samples only.
      const raw = warmSamples(ir.metaBehaviors).map((s) => JSON.stringify(s));
      expect(new Set(raw).size).toBe(raw.length);
      expect(isDeepStrictEqual(warmSamples(ir.metaBehaviors), warmSamples(ir.metaBehaviors))).toBe(true);
    }
    expect(literal).toBeGreaterThan(300);
  });
});
