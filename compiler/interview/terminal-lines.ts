/**
 * The terminal interview's input: answers one line at a time.
 */
import { createInterface } from "node:readline";

const HIGH_WATER = 64;
const LOW_WATER = 16;

/**
 * Lines from a stream, one at a time, without losing any that arrive before
 * they are asked for. The stream is paused while enough lines wait, because
 * `yes "" | …` never stops writing.
 */
export class LineReader {
  private readonly queue: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private ended = false;
  private paused = false;
  private readonly rl;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly onRead?: (line: string) => void,
  ) {
    this.rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
    this.rl.on("line", (line) => this.push(line));
    this.rl.on("close", () => {
      this.ended = true;
      this.flush();
    });
  }

  async next(): Promise<string | undefined> {
    const line = await this.take();
    if (line !== undefined) this.onRead?.(line);
    return line;
  }

  private take(): Promise<string | undefined> {
    const line = this.queue.shift();
    if (this.paused && this.queue.length < LOW_WATER) {
      this.paused = false;
      this.rl.resume();
    }
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  close(): void {
    this.rl.close();
  }

  private push(line: string): void {
    this.queue.push(line);
    this.flush();
    if (!this.paused && this.queue.length >= HIGH_WATER) {
      this.paused = true;
      this.rl.pause();
    }
  }

  private flush(): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    if (this.queue.length > 0) {
      this.waiting = undefined;
      waiting(this.queue.shift());
    } else if (this.ended) {
      this.waiting = undefined;
      waiting(undefined);
    }
  }
}
