/** stderr during a run: how far it got, for a person watching a terminal, and every case that could not be judged, located. */
import { failureLine } from "../run/judge-cases.js";
import type { OutputSink, Write } from "./sink.js";

/** `tty`: whether a person watches stderr; only then is the count shown (and cleared before any other line). */
export function progressSink(out: Write, { tty }: { tty: boolean }): OutputSink {
  let seen = 0;
  let shown = false;
  // A file's output held (OutputSink.hold): its lines, and the count and state to go back to if it is discarded.
  let held: { lines: string[]; seen: number; shown: boolean } | undefined;
  const write: Write = (text) => {
    if (held !== undefined) held.lines.push(text);
    else out(text);
  };
  const clear = () => {
    if (shown) write("\r\x1b[K");
  };
  return {
    add(result) {
      seen++;
      if (tty && seen % 100 === 0) {
        write(`\rjudged ${seen} trajectories…`);
        shown = true;
      }
      if (result.kind === "failed") {
        clear();
        write(`error: ${failureLine(result)}\n`);
      }
    },
    addRendered(run) {
      const before = seen;
      seen += run.cases;
      // Judged cases only (a worker sends failed ones whole): the count, when it passes a hundred.
      if (tty && Math.floor(seen / 100) > Math.floor(before / 100)) {
        write(`\rjudged ${seen - (seen % 100)} trajectories…`);
        shown = true;
      }
      return true;
    },
    async finish() {
      clear();
      return [];
    },
    hold() {
      held = { lines: [], seen, shown };
    },
    commit() {
      const lines = held?.lines ?? [];
      held = undefined;
      for (const line of lines) out(line);
    },
    discard() {
      if (held === undefined) return;
      ({ seen, shown } = held);
      held = undefined;
    },
  };
}
