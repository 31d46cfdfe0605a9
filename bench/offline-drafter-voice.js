#!/usr/bin/env node
// Does the offline drafter read a spec the same in another voice (issue 25)? A metamorphic bench.
//
//   npm run build:cli && node bench/offline-drafter-voice.js [--only FOLDER ...] [--verbose]
//
// For each spec of the default development groups (bench/common.js; or only the FOLDERs given, each
// a spec folder or a folder of them), the spec is drafted with no labels as written and again after
// each meaning-preserving rewrite of its body (bench/voice-transforms.js): `caps` (every letter
// outside backticks upper-cased, headings too), `headers` (a message header with a date and a time
// before each paragraph), `minutes` (each paragraph that states an obligation prefixed with
// "Agreed (proposed R.O., seconded J.K.): "). The frontmatter and backticked names are never
// rewritten; under `caps` each rule's heading is mapped back to the spec's by position, since the
// hand labels are keyed by rule name.
//
// Per group and transform: rule-verdict agreement with the hand labels (as written → rewritten, and
// the difference), the rules whose draft changed (its trigger and checks, the spec's own words aside:
// quotes, sources, descriptions, semantic checks' questions), and the rules whose verdicts on the spec's labeled
// cases changed. A drafter that reads the rule and not the voice loses nothing to any transform.
// `--verbose` also names each rule whose verdicts changed.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { casesOf, defaultGroups, ruleAgreement, specFolders, verdictOf, loadDrafter } from "./common.js";
import { TRANSFORMS } from "./voice-transforms.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { parseBehaviorMd, buildVocabulary, draftOffline, previewJudge, validateTrajectory } = await loadDrafter();

const args = process.argv.slice(2);
const verbose = args.includes("--verbose");
const folders = args.filter((a) => !a.startsWith("--"));
const groups = args.includes("--only")
  ? folders.map((folder) => [relative(root, isAbsolute(folder) ? folder : join(root, folder)) || folder, specFolders(folder)])
  : defaultGroups();

/**
 * A drafted rule as its trigger and checks, without the spec's words, which the transforms rewrite:
 * quotes, sources, descriptions, and the questions of semantic checks (which quote the sentence).
 */
const WORDS = new Set(["quote", "source", "name", "description", "question"]);
const drafted = (rule) => JSON.stringify(rule, (key, value) => (WORDS.has(key) ? undefined : value));

/** The spec of `text`, drafted with no labels, its rules renamed to `names` (the spec's headings as written) by position. */
function draftOf(text, names, vocabulary, samples, where) {
  const parsed = parseBehaviorMd(text);
  if (!parsed.ok) throw new Error(`${where} does not parse: ${JSON.stringify(parsed.diagnostics ?? parsed).slice(0, 400)}`);
  const { spec } = parsed;
  if (spec.sections.length !== names.length) throw new Error(`${where}: ${spec.sections.length} sections, the spec has ${names.length}`);
  const { ir } = draftOffline({ spec, vocabulary, samples });
  return { ...ir, metaBehaviors: ir.metaBehaviors.map((rule, k) => ({ ...rule, name: names[k] })) };
}

const names = Object.keys(TRANSFORMS);
const pad = (s, n) => String(s).padEnd(n);
const W = Math.max(5, ...groups.map(([group]) => group.split(" (")[0].length));
const signed = (n) => (n > 0 ? `+${n}` : String(n));
const totals = Object.fromEntries(names.map((t) => [t, { before: 0, after: 0, total: 0, drafts: 0, verdicts: 0, rules: 0 }]));
const lines = [];
const changedRules = [];
for (const [group, dirs] of groups) {
  const row = Object.fromEntries(names.map((t) => [t, { before: 0, after: 0, total: 0, drafts: 0, verdicts: 0, rules: 0 }]));
  for (const dir of dirs) {
    const text = readFileSync(join(dir, "BEHAVIOR.md"), "utf8");
    const parsed = parseBehaviorMd(text);
    if (!parsed.ok) throw new Error(`${dir}/BEHAVIOR.md does not parse`);
    const headings = parsed.spec.sections.map((s) => s.heading);
    const cases = casesOf(dir);
    const samples = cases.map((c) => validateTrajectory(c.trajectory));
    const vocabulary = buildVocabulary(samples);
    const ids = new Set(cases.map((c) => c.trajectory.id));
    const plain = draftOf(text, headings, vocabulary, samples, `${dir}/BEHAVIOR.md`);
    const plainAgree = ruleAgreement(previewJudge, plain, samples, cases, ids);
    const plainPreview = previewJudge(plain, samples);
    for (const t of names) {
      const ir = draftOf(TRANSFORMS[t](text), headings, vocabulary, samples, `${dir}/BEHAVIOR.md under ${t}`);
      const found = ruleAgreement(previewJudge, ir, samples, cases, ids);
      const preview = previewJudge(ir, samples);
      const r = row[t];
      r.before += plainAgree.agree;
      r.after += found.agree;
      r.total += found.total;
      r.rules += ir.metaBehaviors.length;
      ir.metaBehaviors.forEach((rule, k) => {
        if (drafted(rule) !== drafted(plain.metaBehaviors[k])) r.drafts++;
        const was = plainPreview.rules[k];
        const now = preview.rules[k];
        if (cases.some((c) => verdictOf(was, c.trajectory.id) !== verdictOf(now, c.trajectory.id))) {
          r.verdicts++;
          changedRules.push(`  ${t}: ${relative(root, dir)}: ${rule.name}`);
        }
      });
    }
  }
  for (const t of names) {
    const r = row[t];
    lines.push(
      `${pad(group.split(" (")[0], W)} ${pad(t, 8)} ${pad(`${r.before}/${r.total}`, 12)} ${pad(`${r.after}/${r.total}`, 12)} ${pad(signed(r.after - r.before), 6)} ${pad(`${r.drafts}/${r.rules}`, 15)} ${r.verdicts}/${r.rules}`,
    );
    for (const key of Object.keys(r)) totals[t][key] += r[key];
  }
}
const pct = (a, b) => (b === 0 ? "" : ` ${Math.round((100 * a) / b)}%`);
console.log("no labels: rule-verdict agreement with the hand labels, the spec as written → under each transform");
console.log(
  `${pad("group", W)} ${pad("voice", 8)} ${pad("as written", 12)} ${pad("rewritten", 12)} ${pad("gain", 6)} ${pad("drafts changed", 15)} verdicts changed`,
);
for (const line of lines) console.log(line);
for (const t of names) {
  const r = totals[t];
  console.log(
    `${pad("all", W)} ${pad(t, 8)} ${pad(`${r.before}/${r.total}${pct(r.before, r.total)}`, 12)} ${pad(`${r.after}/${r.total}${pct(r.after, r.total)}`, 12)} ${pad(signed(r.after - r.before), 6)} ${pad(`${r.drafts}/${r.rules}`, 15)} ${r.verdicts}/${r.rules}`,
  );
}
if (verbose && changedRules.length > 0) {
  console.log("rules whose verdicts changed:");
  for (const line of changedRules) console.log(line);
}
