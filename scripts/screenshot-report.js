#!/usr/bin/env node
// Renders the refund-support example's HTML report and screenshots it for the
// README (needs Debian's chromium): node scripts/screenshot-report.js
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const example = join("examples", "refund-support");
const html = join(mkdtempSync(join(tmpdir(), "bj-shot-")), "report.html");
const trajectories = readdirSync(join(root, example, "trajectories"))
  .sort()
  .map((f) => join(example, "trajectories", f));
spawnSync(
  process.execPath,
  [join(root, "bin", "behavior-judge.js"), "judge", join(example, "judge.mjs"), ...trajectories, "--no-web", "--html", html],
  { cwd: root, stdio: "ignore" },
);

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
await page.goto(pathToFileURL(html).href);
// The report opens on the failures when there are any: screenshot it as it opens.
await page.screenshot({ path: join(root, example, "report.png") });
await browser.close();
console.log(`wrote ${join(example, "report.png")}`);
