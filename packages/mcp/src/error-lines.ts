/**
 * The SDK's error reports, logged within bounds. A side can make the SDK
 * report an error for each message it sends (a progress notification for a
 * token no request has, a response to no request), each report holding the
 * whole message: one stderr line per message, as long as the message. Here a
 * line is clipped to MAX_LINE characters and at most `perSecond` are written
 * in a second; past that they are counted, and the count is said once the
 * next line is written or the proxy closes.
 */

/** Lines written in one second, at most, per side. */
export const ERROR_LINES_PER_SECOND = 10;

/** A report longer than this is clipped: it names the message, whose whole text is the side's to log. */
const MAX_LINE = 500;

const WINDOW_MS = 1_000;

export class ErrorLines {
  private windowStart = Number.NEGATIVE_INFINITY;
  private written = 0;
  private dropped = 0;

  constructor(
    private readonly log: (line: string) => void,
    private readonly perSecond = ERROR_LINES_PER_SECOND,
    private readonly now: () => number = () => performance.now(),
  ) {}

  write(line: string): void {
    const at = this.now();
    if (at - this.windowStart >= WINDOW_MS) {
      this.flush();
      this.windowStart = at;
      this.written = 0;
    }
    if (this.written >= this.perSecond) {
      this.dropped++;
      return;
    }
    this.written++;
    this.log(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}… (${line.length - MAX_LINE} more characters)` : line);
  }

  /** Says how many lines were not written, if any. */
  flush(): void {
    if (this.dropped === 0) return;
    this.log(`${this.dropped} more error reports were not written (at most ${this.perSecond} a second)`);
    this.dropped = 0;
  }
}
