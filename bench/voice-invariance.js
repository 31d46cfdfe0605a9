#!/usr/bin/env node
// Does the offline drafter read a rule the same whatever voice it is written in (issue 25)?
//
//   npm run build:cli && node bench/voice-invariance.js [--verbose] [--voices]
//   node bench/voice-invariance.js --rules [FOLDER ...]   (per-rule agreement of the no-label drafts, to pick rules)
//   node bench/voice-invariance.js --files round4- [--voices]   (one round's fixture files only)
//
// test/fixtures/voices/*.json hold rule sentences of the development specs, each written again by
// hand in other voices that mean exactly the same ("must" / "shall" / "is to" / "you must" /
// "Always …" / "Never …" / "At no time …" / "X may only … once …" / "No X without …" / an FAQ's
// "Can … ? No." / "exceeding" / "prior to" / "thereafter" …). A file is
// `{spec, rules: [{rule, original, paraphrases: [{voice, text}]}]}`: `spec` the spec folder (with
// BEHAVIOR.md and trajectories/*.json labeled cases), `rule` a section heading, `original` one
// sentence of that section as written (whitespace may differ), each paraphrase the sentence put in
// its place.
//
// For each paraphrase the spec is drafted with no labels with the sentence swapped in, and the
// rule's verdicts on the spec's labeled cases are compared with those of the original's draft:
// "invariant" counts the paraphrases whose draft judges every case as the original's does. Beside
// it, the rule-verdict agreement with the hand labels, of the originals and of the paraphrases.
//
// The fixture (41 sentences of 14 development specs, 174 paraphrases) was written and committed
// (3c36269) before the voice layer (compiler/generate/offline/voice.ts): 127/174 (73%) invariant and
// 1919/2088 paraphrase verdicts agreeing with the labels then; 162/174 (93%) and 2060/2088 with the
// layer (d65aaec). The layer was tuned on this fixture, so those figures are in-sample.
// round2-*.json (79 paraphrases of 14 sentences of 12 specs, in the voices of checklists, FAQs,
// narratives, managers' e-mails, Do/Don't pages, If/then lines, contract clauses and runbooks) were
// committed (100bffe) before the layer's second round (voice-forms.ts, voice-joins.ts): 26/79
// invariant then, 56/79 after it (218/253 with the first round's); in-sample too (docs/AUTHORING.md "Any voice reads the same").
// round3-*.json (69 paraphrases of 13 sentences of 12 specs, in the voices of blind12 and of regulators'
// notices, onboarding letters, chat threads and slide bullets) were committed (5d70a13) before the
// layer's third round (voice-letters.ts, voice-terms.ts): 39/69 invariant then, 52/69 after it.
// round4-*.json (60 paraphrases of 12 sentences of 12 specs, in the voices of blind13 — a regulator's
// numbered notice, a pinned crew chat with speakers' names, a welcome letter — and the forms the third
// round left: "No: …" in the answer's own words, "… Only then …", arrows, "we don't … until then",
// "one per X", "is good for one X only") were committed before the layer's fourth round: 26/60
// invariant then (`--files round4-`).
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { casesOf, loadDrafter } from "./common.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { parseBehaviorMd, buildVocabulary, draftOffline, previewJudge, validateTrajectory } = await loadDrafter();

const args = process.argv.slice(2);
const verbose = args.includes("--verbose");
const byVoice = args.includes("--voices");

const specs = new Map();
function loadSpec(folder) {
  const dir = isAbsolute(folder) ? folder : join(root, folder);
  if (!specs.has(dir)) {
    const parsed = parseBehaviorMd(readFileSync(join(dir, "BEHAVIOR.md"), "utf8"));
    if (!parsed.ok) throw new Error(`${folder}/BEHAVIOR.md does not parse`);
    const cases = casesOf(dir);
    const samples = cases.map((c) => validateTrajectory(c.trajectory));
    specs.set(dir, { spec: parsed.spec, cases, samples, vocabulary: buildVocabulary(samples) });
  }
  return specs.get(dir);
}

const verdictOf = (rule, id) => (rule.rule.pass.includes(id) ? "true" : rule.rule.fail.includes(id) ? "false" : "na");

/** The rule's verdict on each case, drafted with no labels from the spec with `section` in place of its own. */
function verdicts(loaded, section) {
  const spec = { ...loaded.spec, sections: loaded.spec.sections.map((s) => (s.heading === section.heading ? section : s)) };
  const draft = draftOffline({ spec, vocabulary: loaded.vocabulary, samples: loaded.samples }, [section]);
  const preview = previewJudge(draft.ir, loaded.samples);
  return { list: loaded.cases.map((c) => verdictOf(preview.rules[0], c.trajectory.id)), ir: draft.ir.metaBehaviors[0] };
}

function agreeing(loaded, heading, list) {
  return loaded.cases.filter((c, i) => c.expected.metaBehaviorVerdicts[heading] === list[i]).length;
}

/** `original` found in the body up to whitespace; the body with `text` in its place. */
function swapped(body, original, text, where) {
  const pattern = new RegExp(
    original
      .trim()
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("\\s+"),
  );
  const found = pattern.exec(body);
  if (found === null) throw new Error(`${where}: the original sentence is not in the section: ${JSON.stringify(original)}`);
  return body.slice(0, found.index) + text + body.slice(found.index + found[0].length);
}

if (args.includes("--rules")) {
  const folders = args.filter((a) => !a.startsWith("--"));
  for (const folder of folders) {
    const dir = isAbsolute(folder) ? folder : join(root, folder);
    const dirs = existsSync(join(dir, "BEHAVIOR.md"))
      ? [dir]
      : readdirSync(dir, { withFileTypes: true })
          .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "BEHAVIOR.md")))
          .map((d) => join(dir, d.name));
    for (const d of dirs) {
      const loaded = loadSpec(d);
      for (const section of loaded.spec.sections) {
        const { list } = verdicts(loaded, section);
        console.log(
          `${agreeing(loaded, section.heading, list)}/${loaded.cases.length}  ${d.slice(root.length + 1)}  ## ${section.heading}`,
        );
      }
    }
  }
  process.exit(0);
}

const folder = join(root, "test/fixtures/voices");
// `--files PREFIX`: only the fixture files whose name starts with PREFIX (one round's, e.g. `--files round4-`).
const prefixAt = args.indexOf("--files");
const prefix = prefixAt >= 0 ? args[prefixAt + 1] : "";
if (prefix === undefined) throw new Error("--files: expected a file name prefix, e.g. --files round4-");
const files = readdirSync(folder)
  .filter((f) => f.endsWith(".json") && f.startsWith(prefix))
  .sort();
const t = { rules: 0, paraphrases: 0, invariant: 0, originalAgree: 0, originalTotal: 0, paraAgree: 0, paraTotal: 0 };
const voices = new Map();
const specNames = new Set();
for (const file of files) {
  const fixture = JSON.parse(readFileSync(join(folder, file), "utf8"));
  const loaded = loadSpec(fixture.spec);
  specNames.add(fixture.spec);
  for (const entry of fixture.rules) {
    const where = `${file}: ${entry.rule}`;
    const section = loaded.spec.sections.find((s) => s.heading === entry.rule);
    if (section === undefined) throw new Error(`${where}: no such section in ${fixture.spec}`);
    swapped(section.body, entry.original, entry.original, where);
    const original = verdicts(loaded, section);
    const n = loaded.cases.length;
    t.rules++;
    t.originalAgree += agreeing(loaded, entry.rule, original.list);
    t.originalTotal += n;
    const lines = [];
    for (const p of entry.paraphrases) {
      const body = swapped(section.body, entry.original, p.text, where);
      const read = verdicts(loaded, { ...section, body });
      const same = read.list.every((v, i) => v === original.list[i]);
      const agree = agreeing(loaded, entry.rule, read.list);
      t.paraphrases++;
      if (same) t.invariant++;
      t.paraAgree += agree;
      t.paraTotal += n;
      const v = voices.get(p.voice) ?? { n: 0, same: 0 };
      v.n++;
      if (same) v.same++;
      voices.set(p.voice, v);
      if (!same) lines.push(`    differs (${agree}/${n} vs ${agreeing(loaded, entry.rule, original.list)}/${n}) [${p.voice}] ${p.text}`);
      if (!same && verbose) {
        lines.push(`      original: ${JSON.stringify(original.ir.checks.map((c) => c.type))} ${JSON.stringify(original.ir.checks)}`);
        lines.push(`      this:     ${JSON.stringify(read.ir.checks)} semantic ${read.ir.semanticChecks.length}`);
      }
    }
    const changed = lines.length;
    console.log(`${fixture.spec} ## ${entry.rule}: ${entry.paraphrases.length - changed}/${entry.paraphrases.length} invariant`);
    for (const line of lines) console.log(line);
  }
}
const pct = (a, b) => `${Math.round((100 * a) / b)}%`;
console.log("");
console.log(`rules ${t.rules} over ${specNames.size} specs, paraphrases ${t.paraphrases}`);
console.log(
  `invariant (every labeled case judged as the original's draft): ${t.invariant}/${t.paraphrases} ${pct(t.invariant, t.paraphrases)}`,
);
console.log(`agreement with the labels, originals: ${t.originalAgree}/${t.originalTotal} ${pct(t.originalAgree, t.originalTotal)}`);
console.log(`agreement with the labels, paraphrases: ${t.paraAgree}/${t.paraTotal} ${pct(t.paraAgree, t.paraTotal)}`);
if (byVoice)
  for (const [voice, v] of [...voices].sort((a, b) => a[0].localeCompare(b[0]))) console.log(`  ${voice.padEnd(28)} ${v.same}/${v.n}`);
