/**
 * The rewrites of bench/offline-drafter-voice.js (issue 25): each keeps the frontmatter, fenced code
 * and backticked names as written, and the same rules (sections) in the same order, so the hand
 * labels still apply; `caps` upper-cases everything else, `headers` puts a message header before each
 * paragraph, `minutes` a committee's "Agreed (…): " before each paragraph that states an obligation.
 */
import { describe, expect, it } from "vitest";
import { parseBehaviorMd } from "../../compiler/behavior-md/load.js";
import { caps, headers, minutes, TRANSFORMS } from "../../bench/voice-transforms.js";

const SPEC = `---
name: key-desk
description: Rules for the key desk assistant.
metadata:
  site: north
---
# Key desk

The assistant hands out keys with \`issue_key\` and takes them back with \`return_key\`.

## Sign first

A key is issued only after the borrower has signed (\`sign_out\`).
Keys for the plant room need a second signature.

- Never issue a \`master_key\` to a visitor.
- Check the \`badge_id\`: visitors wear red.

| Key | Who |
| --- | --- |
| master | staff |

\`\`\`
example: never touch
\`\`\`

## Returns

We like tidy desks.
`;

describe("caps", () => {
  const out = caps(SPEC);
  it("upper-cases every letter outside backticks, the frontmatter and code blocks, headings too", () => {
    expect(out).toContain("A KEY IS ISSUED ONLY AFTER THE BORROWER HAS SIGNED (`sign_out`).");
    expect(out).toContain("## SIGN FIRST");
    expect(out).toContain("- NEVER ISSUE A `master_key` TO A VISITOR.");
    expect(out).toContain("| MASTER | STAFF |");
    expect(out).toContain("example: never touch");
    expect(out.startsWith(SPEC.slice(0, SPEC.indexOf("# Key desk")))).toBe(true);
  });
  it("keeps the sections, in order", () => {
    const parsed = parseBehaviorMd(out);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.spec.sections.map((s) => s.heading)).toEqual(["SIGN FIRST", "RETURNS"]);
  });
});

describe("headers", () => {
  const out = headers(SPEC);
  it("puts a header line with a date and a time before each paragraph, not in lists, tables or code", () => {
    const lines = out.split("\n");
    const before = (text: string) => lines[lines.indexOf(text) - 1];
    expect(before("A key is issued only after the borrower has signed (`sign_out`).")).toMatch(
      /^\*\*[A-Z]\. \w+ · \w{3} \d+ Mar, \d\d:\d\d\*\*$/,
    );
    // The paragraph's second line stays with its first.
    expect(before("Keys for the plant room need a second signature.")).toBe(
      "A key is issued only after the borrower has signed (`sign_out`).",
    );
    expect(before("- Never issue a `master_key` to a visitor.")).toBe("");
    expect(before("- Check the `badge_id`: visitors wear red.")).toBe("- Never issue a `master_key` to a visitor.");
    expect(before("We like tidy desks.")).toMatch(/^\*\*/);
    expect(before("| master | staff |")).toBe("| --- | --- |");
    expect(before("example: never touch")).toBe("```");
    expect(before("## Sign first")).toBe("");
  });
  it("puts none between a lead-in and the paragraph it opens", () => {
    const out = headers("## Refunds\n\nBefore a refund the clerk must:\n\nCheck the receipt.\n");
    expect(out.split("\n").filter((line) => line.startsWith("**"))).toHaveLength(1);
  });
  it("keeps the frontmatter and the sections", () => {
    expect(out.startsWith(SPEC.slice(0, SPEC.indexOf("# Key desk")))).toBe(true);
    const parsed = parseBehaviorMd(out);
    expect(parsed.ok && parsed.spec.sections.map((s) => s.heading)).toEqual(["Sign first", "Returns"]);
  });
});

describe("minutes", () => {
  const out = minutes(SPEC);
  it("prefixes each paragraph or list item that states an obligation, after the item's marker", () => {
    expect(out).toContain("\nAgreed (proposed R.O., seconded J.K.): A key is issued only after the borrower has signed (`sign_out`).\n");
    expect(out).toContain("\n- Agreed (proposed R.O., seconded J.K.): Never issue a `master_key` to a visitor.\n");
  });
  it("leaves a paragraph that states no obligation, the preamble's words in backticks aside", () => {
    expect(out).toContain("\n- Check the `badge_id`: visitors wear red.\n");
    expect(out).toContain("\nWe like tidy desks.\n");
    expect(out).toContain("\nThe assistant hands out keys with `issue_key`");
    expect(out).toContain("\n| master | staff |\n");
  });
  it("keeps the sections", () => {
    const parsed = parseBehaviorMd(out);
    expect(parsed.ok && parsed.spec.sections.map((s) => s.heading)).toEqual(["Sign first", "Returns"]);
  });
});

it("the bench's transforms are caps, headers and minutes, in that order", () => {
  expect(Object.keys(TRANSFORMS)).toEqual(["caps", "headers", "minutes"]);
});
