/** The generator version written into every judge.ts / judge.mjs header. Kept equal to package.json by a test. */
export const VERSION = "0.1.0";
