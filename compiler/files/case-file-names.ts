/**
 * File names for one file per case (`label -o folder/`), from case ids: a
 * trajectory id is input, so it can hold `/`, `..`, control characters or a
 * device name. A name keeps letters, digits, `.`, `_` and `-` (anything else
 * becomes `_`), never starts with a dot, is at most 100 characters, and ends
 * in `.json`. Two cases that come out the same (also when they differ only in
 * case, for case-insensitive file systems) are told apart by `-2`, `-3`, … in
 * input order, so the same inputs always give the same names.
 */

const MAX_STEM = 100;
/** Names Windows keeps for devices, whatever the extension. */
const DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** The stem a case id gives, before collisions are told apart. */
export function safeStem(id: string): string {
  let stem = id
    .normalize("NFC")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(0, MAX_STEM)
    .replace(/[.]+$/, "");
  if (stem === "") stem = "case";
  if (DEVICE.test(stem)) stem = `${stem}_`;
  return stem;
}

/** A namer for one output folder: each call gives the next case's file name, distinct from every earlier one. */
export function caseFileNamer(): (id: string) => string {
  const taken = new Set<string>();
  return (id) => {
    const stem = safeStem(id);
    let name = `${stem}.json`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}-${n}.json`;
    taken.add(name.toLowerCase());
    return name;
  };
}
