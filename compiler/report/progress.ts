/** stderr during a run: how far it got, for a person watching a terminal, and every case that could not be judged, located. */
import { failureLine } from "../run/judge-cases.js";
import type { OutputSink, Write } from "./sink.js";

/** `tty`: whether a person watches stderr; only then is the count shown (and cleared before any other line). */
export function progressSink(write: Write, { tty }: { tty: boolean }): OutputSink {
  let seen = 0;
  let shown = false;
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
  };
}
