/**
 * Span-based formats record each model call with the whole conversation it
 * was sent, so the same user message comes back in every later call (and in
 * the next agent's, when agents share the history). SeenTexts picks out the
 * messages that are new: for each text, only occurrences beyond the number
 * already taken. Messages keep their order.
 */
export class SeenTexts {
  private readonly taken = new Map<string, number>();

  /** The texts of `texts` not seen before, in order; they count as seen from now on. */
  fresh(texts: readonly string[]): string[] {
    const inThisCall = new Map<string, number>();
    const out: string[] = [];
    for (const text of texts) {
      const n = (inThisCall.get(text) ?? 0) + 1;
      inThisCall.set(text, n);
      if (n > (this.taken.get(text) ?? 0)) {
        this.taken.set(text, n);
        out.push(text);
      }
    }
    return out;
  }
}
