/**
 * A metadata key whose values are free text (a reason, a note, a title: "cast over 2,000 m", "out of
 * fridge over 30 minutes") rather than categories ("approved", "no growth", "copper hydroxide").
 * A phrase that writes one word of such a value does not name it: "every cast on that winch" is no
 * call logged with `reason: cast over 2,000 m`, and the word tells nothing about which act it is.
 * The label path draws the same line for the values it may test (synthesize-keys.ts `categorical`).
 */
export function freeText(values: readonly (string | { value: string })[]): boolean {
  // Four words or more, a link, a path, an address, or a long string: something written, not chosen from a list.
  return values.some((x) => {
    const v = typeof x === "string" ? x : x.value;
    return /:\/\/|^\/|@|\s\S+\s\S+\s/.test(v) || v.length > 40;
  });
}
