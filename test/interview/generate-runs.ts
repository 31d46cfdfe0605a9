/**
 * `generate` run through each interview front end with scripted answers, for the verdict-question
 * tests (verdicts, verdicts-web, verdicts-unlabeled): the terminal fed lines, the page's server
 * started and driven by its own endpoints.
 */
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { generateJudgeYaml } from "../../compiler/generate/pipeline.js";
import { runTerminalInterview } from "../../compiler/interview/terminal.js";
import { startWebInterview, type WebInterview } from "../../compiler/interview/web.js";
import { capture } from "./fixture.js";

/** A project on disk: its spec, its sample files and the folder judge.yaml is written to. */
export interface GenerateProject {
  spec: string;
  files: string[];
  dir: string;
}

/** Runs `generate` with the terminal interview, answering `lines` in order; resolves the result and the transcript. */
export async function generateInTerminal(project: GenerateProject, ...lines: string[]) {
  const out = capture();
  const input = new PassThrough();
  input.end(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
  const result = await generateJudgeYaml({
    spec: project.spec,
    samples: project.files,
    out: join(project.dir, "judge.yaml"),
    interviewer: (i) => runTerminalInterview(i, { input, output: out.stream }),
    compile: false,
  });
  return { result, transcript: out.text() };
}

/** Waits (polling) until `condition` holds; throws after about five seconds. */
export async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!condition()) throw new Error("timed out");
}

/** Starts `generate` with the browser interview; resolves its server, once started, and the run. */
export async function generateOnPage(project: GenerateProject) {
  let server: WebInterview | undefined;
  const run = generateJudgeYaml({
    spec: project.spec,
    samples: project.files,
    out: join(project.dir, "judge.yaml"),
    compile: false,
    interviewer: async (input) => {
      server = await startWebInterview(input);
      return server.result;
    },
  });
  await waitFor(() => server !== undefined);
  return { server: server!, run };
}

/** POSTs `body` as JSON to the page's `path`, with its token. */
export function post(server: WebInterview, path: string, body: unknown): Promise<Response> {
  const url = new URL(server.url);
  return fetch(`${url.origin}${path}?token=${url.searchParams.get("token")}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}
