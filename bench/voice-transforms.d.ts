// Types of bench/voice-transforms.js, for test/generate/voice-transforms.test.ts.

/** Every letter outside backticks, the frontmatter and code blocks upper-cased, headings too. */
export function caps(text: string): string;
/** A message header line with a date and a time before each paragraph, as in a thread of e-mails. */
export function headers(text: string): string;
/** "Agreed (proposed R.O., seconded J.K.): " before each paragraph or list item that states an obligation. */
export function minutes(text: string): string;
/** The transforms by name, in the bench's order. */
export const TRANSFORMS: Readonly<Record<"caps" | "headers" | "minutes", (text: string) => string>>;
