#!/usr/bin/env node
// The offline drafter's drafts as text, to hold a change that should change no draft (a faster
// search, issue 25) to byte-identical output.
//
//   npm run build:cli && node bench/drafts-snapshot.js OUT.txt [--only] [FOLDER ...] [--no-fifty]
//
// For every spec of the default groups of bench/offline-drafter-labels.js (bench/common.js
// defaultGroups; `--only` and FOLDERs as in that bench): the judge.yaml drafted with no labels, with
// the labels of the even cases and with those of the odd ones, each with its notes and verdict
// questions; and, unless `--no-fifty`, each rule drafted alone on the bench's 50 samples (the cases
// repeated under new ids, the even ones labeled), where a search near its budget would show a
// change of order. Written to OUT.txt (stdout without it); compare two runs with `cmp`. The CPU time
// of each 50-sample rule goes to stderr (never to the file), slowest last, for the profile.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { casesOf, defaultGroups, loadDrafter, specFolders } from "./common.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { parseBehaviorMd, buildVocabulary, draftOffline, validateTrajectory } = await loadDrafter();
const { serializeJudgeYaml } = await import(join(root, "dist", "compiler/ir/index.js"));

const args = process.argv.slice(2);
const only = args.includes("--only");
const fifty = !args.includes("--no-fifty");
const positional = args.filter((a) => !a.startsWith("--"));
const out = positional[0]?.endsWith(".txt") ? positional.shift() : undefined;
const groups = [
  ...(only ? [] : defaultGroups()),
  ...positional.map((folder) => [relative(root, isAbsolute(folder) ? folder : join(root, folder)) || folder, specFolders(folder)]),
];

const parts = [];
const timings = [];
const write = (title, draft) => {
  parts.push(`=== ${title}\n${serializeJudgeYaml(draft.ir)}`);
  parts.push(`--- notes\n${draft.notes.map((n) => JSON.stringify(n)).join("\n")}\n`);
  if (draft.questions !== undefined) parts.push(`--- questions\n${draft.questions.map((q) => JSON.stringify(q)).join("\n")}\n`);
};
for (const [group, dirs] of groups) {
  for (const dir of dirs) {
    const name = relative(root, dir);
    const spec = parseBehaviorMd(readFileSync(join(dir, "BEHAVIOR.md"), "utf8")).spec;
    const cases = casesOf(dir);
    const samples = cases.map((c) => validateTrajectory(c.trajectory));
    const vocabulary = buildVocabulary(samples);
    write(`${group} ${name}: no labels`, draftOffline({ spec, vocabulary, samples }));
    for (const half of [0, 1]) {
      const labels = Object.fromEntries(
        cases.filter((_, i) => i % 2 === half).map((c) => [c.trajectory.id, c.expected.metaBehaviorVerdicts]),
      );
      write(`${group} ${name}: labels of the ${half === 0 ? "even" : "odd"} cases`, draftOffline({ spec, vocabulary, samples, labels }));
    }
    if (!fifty) continue;
    // As the bench times a rule: 50 samples, the even ones labeled, one section at a time.
    const many = Array.from({ length: 50 }, (_, k) => {
      const c = cases[k % cases.length];
      return { ...c, trajectory: { ...c.trajectory, id: `${c.trajectory.id}~${k}` } };
    });
    const manySamples = many.map((c) => validateTrajectory(c.trajectory));
    const manyLabels = Object.fromEntries(
      many.filter((_, i) => i % 2 === 0).map((c) => [c.trajectory.id, c.expected.metaBehaviorVerdicts]),
    );
    const manyVocabulary = buildVocabulary(manySamples);
    for (const section of spec.sections) {
      const cpu = process.cpuUsage();
      const draft = draftOffline({ spec, vocabulary: manyVocabulary, samples: manySamples, labels: manyLabels }, [section]);
      const used = process.cpuUsage(cpu);
      timings.push({ ms: (used.user + used.system) / 1000, rule: `${name}: ${section.heading}` });
      write(`${group} ${name}: 50 samples, ${section.heading}`, draft);
    }
  }
}
const text = parts.join("");
if (out === undefined) process.stdout.write(text);
else writeFileSync(out, text);
timings.sort((a, b) => a.ms - b.ms);
for (const t of timings) process.stderr.write(`${Math.round(t.ms)} ms CPU  ${t.rule}\n`);
process.stderr.write(`total ${Math.round(timings.reduce((n, t) => n + t.ms, 0))} ms CPU over ${timings.length} rules on 50 samples\n`);
