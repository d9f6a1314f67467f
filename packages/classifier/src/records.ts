/**
 * Splitting a stream of stored responses into records without reading it
 * whole: JSON lines, the elements of one top-level JSON array, or JSON
 * documents one after another (pretty-printed ones too). Memory is bounded by
 * the largest record, and a record over the cap is skipped, not buffered.
 *
 * The scanner only finds where a record starts and ends (strings, escapes,
 * nesting); the bounded parser still judges every record's text.
 */
import { concatBytes } from "@strictwire/codec/http";

/** The most one record may hold; a larger one is reported and skipped. */
export const RECORD_CAP = 256 * 1024 * 1024;

export type InputRecord =
  /** `index` counts records from 1; `line` is the line the record starts on. */
  | { readonly kind: "text"; readonly index: number; readonly line: number; readonly bytes: Uint8Array }
  | { readonly kind: "unreadable"; readonly index: number; readonly line: number; readonly reason: string };

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const BOM = [0xef, 0xbb, 0xbf];

const isSpace = (byte: number): boolean => byte === SPACE || byte === NEWLINE || byte === RETURN || byte === TAB;

/**
 * "undecided" until the first record ends: a record that ends on its first
 * line makes the input JSON lines (each line a record, so a broken line spoils
 * only itself); one that spans lines makes it a sequence of documents.
 */
type Mode = "undecided" | "lines" | "documents" | "array" | "after-array";

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/** Push chunks in, take whole records out, in order. */
export class RecordSplitter {
  private mode: Mode = "undecided";
  private readonly pieces: Uint8Array[] = [];
  private size = 0;
  private oversize = false;
  /** Whether a record is open, and where it began. */
  private open = false;
  private startLine = 1;
  private line = 1;
  private index = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A documents-mode record that opened with a scalar ends at its line's end. */
  private scalar = false;
  /** In the array: a comma was just read, so an element is due before the next comma or ]. */
  private elementSeen = false;
  private arrayClosed = false;
  /** The array mode's trailing text, reported once. */
  private trailingReported = false;
  private atStart = true;
  private readonly bom: number[] = [];
  /** The first record's first line ended with the record still open: what starts the next line decides. */
  private firstLineEnded = false;

  constructor(private readonly cap: number = RECORD_CAP) {}

  push(chunk: Uint8Array): InputRecord[] {
    const out: InputRecord[] = [];
    // A byte order mark some exporters write first is not part of the first record.
    if (this.atStart && chunk.length > 0) {
      if (this.bom.length > 0 || chunk[0] === 0xef) {
        const wanted = BOM.length - this.bom.length;
        this.bom.push(...chunk.subarray(0, wanted));
        if (this.bom.length < BOM.length && chunk.length < wanted) return out;
        this.atStart = false;
        const marked = this.bom.every((byte, i) => byte === BOM[i]);
        const rest = chunk.subarray(wanted);
        const bytes = marked ? rest : concatBytes([Uint8Array.from(this.bom), rest], this.bom.length + rest.length);
        this.bom.length = 0;
        return this.pushAfterStart(bytes, out);
      }
      this.atStart = false;
    }
    return this.pushAfterStart(chunk, out);
  }

  private pushAfterStart(chunk: Uint8Array, out: InputRecord[]): InputRecord[] {
    if (this.mode === "lines") this.pushLines(chunk, out);
    else this.scan(chunk, 0, out);
    return out;
  }

  /** The end of the input: an open record is judged as it stands. */
  end(): InputRecord[] {
    const out: InputRecord[] = [];
    if (this.bom.length > 0) {
      // The input ended inside what might have been a byte order mark: those bytes are text.
      const pending = Uint8Array.from(this.bom);
      this.bom.length = 0;
      this.atStart = false;
      this.pushAfterStart(pending, out);
    }
    if (this.mode === "array" && !this.arrayClosed) {
      if (this.open) this.finish(out);
      this.index += 1;
      out.push({
        kind: "unreadable",
        index: this.index,
        line: this.line,
        reason: `line ${this.line}: the array is not closed with ], so the input may be cut short`,
      });
      return out;
    }
    if (this.open) this.finish(out);
    return out;
  }

  private take(chunk: Uint8Array, from: number, to: number): void {
    if (to <= from || this.oversize) return;
    this.size += to - from;
    if (this.size > this.cap) {
      this.oversize = true;
      this.pieces.length = 0;
      return;
    }
    this.pieces.push(chunk.subarray(from, to));
  }

  private begin(): void {
    this.open = true;
    this.startLine = this.line;
    this.size = 0;
    this.oversize = false;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  private finish(out: InputRecord[]): void {
    this.open = false;
    this.index += 1;
    const { index, startLine: line } = this;
    if (this.oversize) {
      out.push({
        kind: "unreadable",
        index,
        line,
        reason: `line ${line}: the record is larger than ${megabytes(this.cap)}, so it was skipped`,
      });
    } else {
      const bytes = this.pieces.length === 1 ? this.pieces[0]! : concatBytes(this.pieces, this.size);
      out.push({ kind: "text", index, line, bytes });
    }
    this.pieces.length = 0;
    this.size = 0;
    this.oversize = false;
  }

  /** JSON lines: each non-blank line is a record. */
  private pushLines(chunk: Uint8Array, out: InputRecord[]): void {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, from);
      const to = newline === -1 ? chunk.length : newline;
      if (!this.open) {
        let first = from;
        while (first < to && isSpace(chunk[first]!)) first += 1;
        if (first < to) {
          this.begin();
          this.take(chunk, first, to);
        }
      } else {
        this.take(chunk, from, to);
      }
      if (newline === -1) return;
      if (this.open) this.finish(out);
      this.line += 1;
      from = newline + 1;
    }
  }

  /** Byte by byte through strings and nesting, for the undecided, documents and array modes. */
  private scan(chunk: Uint8Array, start: number, out: InputRecord[]): void {
    let from = start; // where the open record's bytes in this chunk begin
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.firstLineEnded) {
        this.firstLineEnded = false;
        // A pretty-printed document indents or closes its next line; a line that opens
        // a new object at its start means JSON lines whose first line is broken.
        if (byte === OPEN_BRACE) {
          this.take(chunk, from, i);
          this.finish(out);
          this.mode = "lines";
          this.pushLines(chunk.subarray(i), out);
          return;
        }
        this.mode = "documents";
      }
      if (byte === NEWLINE) {
        this.line += 1;
        if (this.open && this.mode === "undecided" && !this.scalar) this.firstLineEnded = true;
      }
      if (!this.open) {
        if (isSpace(byte)) continue;
        if (this.mode === "after-array") {
          this.trailing(out);
          continue;
        }
        if (this.mode === "array") {
          if (this.arrayClosed) continue;
          if (byte === CLOSE_BRACKET) {
            if (this.elementSeen) this.emptyElement(out);
            this.arrayClosed = true;
            this.mode = "after-array";
            continue;
          }
          if (byte === COMMA) {
            this.emptyElement(out);
            continue;
          }
        } else if (this.mode === "undecided" && byte === OPEN_BRACKET && this.index === 0) {
          this.mode = "array";
          continue;
        }
        this.begin();
        this.scalar = byte !== OPEN_BRACE && byte !== OPEN_BRACKET && byte !== QUOTE;
        from = i;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.depth === 0 && this.mode !== "array") {
            this.take(chunk, from, i + 1);
            this.ended(out, this.line);
            if (this.mode === "lines") {
              this.pushLines(chunk.subarray(i + 1), out);
              return;
            }
          }
        }
        continue;
      }
      if (this.mode === "array") {
        // At or below the element's own level: a stray } cannot hide the element's end.
        if (this.depth <= 0 && (byte === COMMA || byte === CLOSE_BRACKET)) {
          this.take(chunk, from, i);
          this.finish(out);
          this.elementSeen = byte === COMMA;
          if (byte === CLOSE_BRACKET) {
            this.arrayClosed = true;
            this.mode = "after-array";
          }
          continue;
        }
      } else if (this.scalar) {
        if (byte === NEWLINE) {
          this.take(chunk, from, i);
          this.ended(out, this.line - 1);
          if (this.mode === "lines") {
            this.pushLines(chunk.subarray(i + 1), out);
            return;
          }
        }
        continue;
      }
      if (byte === QUOTE) this.inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth += 1;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        this.depth -= 1;
        if (this.depth <= 0 && this.mode !== "array") {
          this.take(chunk, from, i + 1);
          this.ended(out, this.line);
          if (this.mode === "lines") {
            this.pushLines(chunk.subarray(i + 1), out);
            return;
          }
        }
      }
    }
    if (this.open) this.take(chunk, from, chunk.length);
  }

  /** A record in the undecided or documents mode is complete. */
  private ended(out: InputRecord[], endLine: number): void {
    const oneLine = endLine === this.startLine;
    this.finish(out);
    if (this.mode === "undecided") this.mode = oneLine ? "lines" : "documents";
  }

  private emptyElement(out: InputRecord[]): void {
    this.index += 1;
    out.push({
      kind: "unreadable",
      index: this.index,
      line: this.line,
      reason: `line ${this.line}: an empty array element (two commas, or a comma before ])`,
    });
    this.elementSeen = true;
  }

  private trailing(out: InputRecord[]): void {
    if (this.trailingReported) return;
    this.trailingReported = true;
    this.index += 1;
    out.push({
      kind: "unreadable",
      index: this.index,
      line: this.line,
      reason: `line ${this.line}: text after the closing ] of the array, ignored`,
    });
  }
}

const encoder = new TextEncoder();

/** Records from a stream of chunks (a file, standard input, an object store's body). */
export async function* splitRecords(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  cap: number = RECORD_CAP,
): AsyncGenerator<InputRecord> {
  const splitter = new RecordSplitter(cap);
  for await (const chunk of chunks) {
    yield* splitter.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
  }
  yield* splitter.end();
}
