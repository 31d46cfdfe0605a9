import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../compiler/files/atomic-write.js";

describe("writeFileAtomic", () => {
  it("creates the folders and writes the text, replacing what was there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atomic-write-"));
    const path = join(dir, "a", "b", "entry.json");
    await writeFileAtomic(path, "first\n");
    await writeFileAtomic(path, "second ✓\n");
    expect(readFileSync(path, "utf8")).toBe("second ✓\n");
    expect(readdirSync(join(dir, "a", "b"))).toEqual(["entry.json"]);
  });

  it("throws when the write fails and leaves no temp file behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atomic-write-"));
    const path = join(dir, "taken");
    mkdirSync(join(path, "not-empty"), { recursive: true }); // a folder where the file should go: the rename fails
    await expect(writeFileAtomic(path, "text")).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
  });
});
