/**
 * Streaming's floor and peers (issue 28): what reading a call delta by delta
 * costs before any partial value is shown, as a ratio to one codec.decode of
 * the whole text in the same round, on the stream decoder's texts and deltas.
 *
 * - receive: the least any `push(delta)` does, whatever its design: keep the
 *   delta (the text, or the string being written, grows by it) and search it
 *   for the two characters that end or escape a string (a native search).
 *   Nothing is parsed and nothing is shown.
 * - receive + decode: then one decode of the text so received, which is what
 *   end() must return: the floor of a design that parses nothing per push.
 * - The incremental JSON parsers JavaScript users reach for, each alone (a
 *   final value, no partial value, no schema): jsonparse and
 *   @streamparser/json (jsonparse encodes each string delta to UTF-8 alone,
 *   so a surrogate pair split between deltas comes out as two U+FFFD: its
 *   time is still what it costs). And partial-json, which parses the whole text so far
 *   again at every delta (what a partial value costs in most tools today):
 *   quadratic, so on the benchmark's calls only.
 *
 * - The AI SDK's own partial value (ai@6's UI message stream): at each
 *   tool-input-delta it appends the delta to the call's text and awaits
 *   `parsePartialJson(text so far)` (JSON.parse, else the text repaired and
 *   parsed again). Quadratic too, and asynchronous, so timed on the calls
 *   only, in rounds of its own that alternate with decode (aiSdkPartialRow).
 *
 * Timed in the stream decoder's own rounds (streaming.ts decoderRow), so
 * every ratio shares one decode baseline (the AI SDK's row: its own decode
 * rounds, in the same run). docs/streaming.md compares the goal
 * of streaming at most 2x one decode with them.
 */
import { createRequire } from "node:module";
import { JSONParser } from "@streamparser/json";
import { parsePartialJson as aiParsePartialJson } from "ai";
import { parse as parsePartialJson } from "partial-json";
import { type Comparison, consume, type Summary, summarize, type TimedTask } from "../stats.js";
import type { CodecText } from "./streaming.js";

/** jsonparse ships no types: the two members used. */
interface JsonparseParser {
  onValue: (value: unknown) => void;
  write(chunk: string): void;
}
const Jsonparse = createRequire(import.meta.url)("jsonparse") as new () => JsonparseParser;

/** The least a push does: keep the delta, and find whether it ends or escapes a string. */
class Receiver {
  text = "";
  marks = 0;
  push(delta: string): number {
    this.text += delta;
    if (delta.indexOf('"') !== -1 || delta.indexOf("\\") !== -1) this.marks++;
    return this.marks;
  }
}

/** The floor and the peers, each over decode in the same rounds. */
export interface StreamFloor {
  readonly receive: Summary;
  readonly receiveDecode: Summary;
  readonly jsonparse: Summary;
  readonly streamparser: Summary;
  /** Undefined where not timed (quadratic: too slow on 100 KB texts). */
  readonly reparse: Summary | undefined;
}

/** Each text's deltas received (the floor's first part); also the parser section's floor. */
export function receiveAll(streams: readonly (readonly string[])[]): Receiver[] {
  const received: Receiver[] = [];
  for (const deltas of streams) {
    const r = new Receiver();
    for (const delta of deltas) r.push(delta);
    received.push(r);
  }
  return received;
}

/** The floor's and the peers' tasks over the texts' deltas (the partial-json one if `reparse`). */
export function floorTasks(
  calls: readonly CodecText[],
  streams: readonly (readonly string[])[],
  limits: object,
  reparse: boolean,
): TimedTask[] {
  const check = receiveAll(streams);
  calls.forEach(({ text }, i) => {
    if (check[i]!.text !== text) throw new Error("the deltas do not make the text");
  });
  const tasks: TimedTask[] = [
    { name: "receive", fn: () => receiveAll(streams) },
    {
      name: "receive + decode",
      fn: () => {
        const received = receiveAll(streams);
        let last: unknown;
        for (let i = 0; i < calls.length; i++) last = calls[i]!.codec.decode(received[i]!.text, { limits });
        return last;
      },
    },
    {
      name: "jsonparse",
      fn: () => {
        let last: unknown;
        for (const deltas of streams) {
          const p = new Jsonparse();
          p.onValue = (v) => {
            last = v;
          };
          for (const delta of deltas) p.write(delta);
        }
        return last;
      },
    },
    {
      name: "@streamparser/json",
      fn: () => {
        let last: unknown;
        for (const deltas of streams) {
          const p = new JSONParser({ paths: ["$"], keepStack: false });
          p.onValue = ({ value }) => {
            last = value;
          };
          for (const delta of deltas) p.write(delta);
        }
        return last;
      },
    },
  ];
  if (reparse) {
    tasks.push({
      name: "partial-json",
      fn: () => {
        let last: unknown;
        for (const deltas of streams) {
          let text = "";
          for (const delta of deltas) {
            text += delta;
            try {
              last = parsePartialJson(text);
            } catch {
              // A prefix it cannot read yet (a sign alone): read again whole at the next delta.
            }
          }
        }
        return last;
      },
    });
  }
  return tasks;
}

export function floorOf(cmp: Comparison): StreamFloor {
  return {
    receive: cmp.ratio.receive!,
    receiveDecode: cmp.ratio["receive + decode"]!,
    jsonparse: cmp.ratio.jsonparse!,
    streamparser: cmp.ratio["@streamparser/json"]!,
    reparse: cmp.ratio["partial-json"],
  };
}

/**
 * The AI SDK's partial parse as ai@6 runs it per delta, over decode of the
 * same texts: rounds that alternate the two, each timed for at least
 * `timeMs`, the ratio of their times per call, its median over the rounds.
 * Awaited per delta as the SDK does (a sync benchmark cannot time it).
 */
export async function aiSdkPartialRow(
  decodeAll: () => unknown,
  streams: readonly (readonly string[])[],
  rounds: number,
  timeMs: number,
): Promise<Summary> {
  const parseAll = async (): Promise<unknown> => {
    let last: unknown;
    for (const deltas of streams) {
      let text = "";
      for (const delta of deltas) {
        text += delta;
        last = (await aiParsePartialJson(text)).value;
      }
    }
    return last;
  };
  const timeSync = (): number => {
    let n = 0;
    const t0 = performance.now();
    do {
      consume(decodeAll());
      n++;
    } while (performance.now() - t0 < timeMs);
    return (performance.now() - t0) / n;
  };
  const timeAsync = async (): Promise<number> => {
    let n = 0;
    const t0 = performance.now();
    do {
      consume(await parseAll());
      n++;
    } while (performance.now() - t0 < timeMs);
    return (performance.now() - t0) / n;
  };
  // Warm-up, then alternate.
  timeSync();
  await timeAsync();
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const first = r % 2 === 0;
    const a = first ? timeSync() : await timeAsync();
    const b = first ? await timeAsync() : timeSync();
    ratios.push(first ? b / a : a / b);
  }
  return summarize(ratios);
}
