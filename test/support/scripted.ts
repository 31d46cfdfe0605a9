/**
 * Scripts for the chat server that answer from a file of intended answers
 * (examples/<name>/scripted-answers.json), matching each request on the
 * trajectory id, rule, question kind and quote found in the prompt.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest, Script } from "./chat-server.js";

export interface ScriptedAnswer {
  trajectoryId: string;
  ruleName: string;
  kind: "trigger" | "check" | "verify";
  quote: string;
  verdict: "true" | "false" | "na";
  na_reason: string | null;
  reasoning: string;
  citations: { event_id: string; description: string }[];
}

export function readScriptedAnswers(path: string): ScriptedAnswer[] {
  return JSON.parse(readFileSync(path, "utf8")) as ScriptedAnswer[];
}

/** The tax-research example, whose semantic clauses the model tests script: its judge.mjs, its labeled trajectory files (sorted), their ids and its intended answers. */
export function taxResearchExample(): { judgeMjs: string; files: string[]; ids: string[]; scripted: ScriptedAnswer[] } {
  const dir = join(import.meta.dirname, "..", "..", "examples", "tax-research");
  const files = readdirSync(join(dir, "trajectories"))
    .sort()
    .map((f) => join(dir, "trajectories", f));
  return {
    judgeMjs: join(dir, "judge.mjs"),
    files,
    ids: files.map((f) => (JSON.parse(readFileSync(f, "utf8")) as { trajectory: { id: string } }).trajectory.id),
    scripted: readScriptedAnswers(join(dir, "scripted-answers.json")),
  };
}

/** Which of the three questions a prompt asks, from the task text of runtime/semantic.ts. */
export function questionKind(prompt: string): ScriptedAnswer["kind"] {
  if (prompt.includes("The rule applies to a trajectory only when this situation occurs:")) return "trigger";
  if (prompt.includes("found this clause violated")) return "verify";
  return "check";
}

export function trajectoryIdOf(prompt: string): string | undefined {
  const match = /^\{"trajectory_id":("(?:[^"\\]|\\.)*")/m.exec(prompt);
  return match === null ? undefined : (JSON.parse(match[1]!) as string);
}

export function findScripted(answers: readonly ScriptedAnswer[], request: RecordedRequest): ScriptedAnswer | undefined {
  const prompt = request.body.messages[1]?.content ?? "";
  const id = trajectoryIdOf(prompt);
  const kind = questionKind(prompt);
  return answers.find(
    (a) => a.trajectoryId === id && a.kind === kind && prompt.includes(`Rule: ${a.ruleName}\n`) && prompt.includes(JSON.stringify(a.quote)),
  );
}

/**
 * Answers every question from the file. A question the file does not cover
 * gets prose, which fails validation twice and shows up as a clause error
 * naming what was asked, so a gap in the script cannot pass unnoticed.
 */
export function scriptedAnswers(answers: readonly ScriptedAnswer[], unmatched: string[] = []): Script {
  return (request) => {
    const found = findScripted(answers, request);
    if (found === undefined) {
      const prompt = request.body.messages[1]?.content ?? "";
      unmatched.push(`${trajectoryIdOf(prompt)} ${questionKind(prompt)} ${/^Rule: (.*)$/m.exec(prompt)?.[1]}`);
      return { reply: "NO SCRIPTED ANSWER" };
    }
    const { verdict, na_reason, reasoning, citations } = found;
    return { reply: JSON.stringify({ verdict, na_reason, reasoning, citations }) };
  };
}
