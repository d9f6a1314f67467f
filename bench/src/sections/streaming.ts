/**
 * Streaming (issue 28): the cost of reading a call's arguments as the model
 * writes them, in deltas of 1 to 8 characters, through the incremental parser
 * (every push, then end()), as a ratio to one parseJson of the whole text in
 * the same round. "push only" is the incremental parser's own share; end()
 * is one parseJson of the accumulated text, so stream ≈ push only + 1.
 *
 * The parser is not public yet (the per-construct streaming decoder comes on
 * top of it), so it is imported from the codec's source, with the parseJson
 * it is compared to.
 */

import { parseJson } from "../../../packages/codec/src/feedback/parse.js";
import { IncrementalParser } from "../../../packages/codec/src/parse/incremental.js";
import type { CallCase } from "../cases.js";
import { random } from "../corpora.js";
import { table } from "../format.js";
import { type ComparisonOptions, compareInterleaved, fmtMs, fmtSummary, geomean, type Summary } from "../stats.js";
import { makeDocument, SHAPES } from "./parse.js";

/** Limits raised so that every 100 KB document is within them. */
const LIMITS = { maxBytes: 8_000_000, maxNodes: 10_000_000, maxDepth: 64 };

export interface StreamingRow {
  readonly label: string;
  readonly texts: number;
  readonly bytes: number;
  readonly deltas: number;
  readonly parseJson: Summary;
  /** Every push, then end(), over parseJson, per round. */
  readonly stream: Summary;
  /** Every push without end(), over parseJson, per round. */
  readonly pushOnly: Summary;
}

export interface StreamingResult {
  readonly calls: StreamingRow;
  readonly large: readonly StreamingRow[];
  /** Geometric means over the 100 KB shapes of the median ratios. */
  readonly largeStream: number;
  readonly largePushOnly: number;
}

/** Splits a text into deltas of 1 to 8 characters (seeded, so every run streams the same deltas). */
export function deltasOf(text: string, seed: number): string[] {
  const rnd = random(seed);
  const deltas: string[] = [];
  for (let i = 0; i < text.length; ) {
    const size = 1 + Math.floor(rnd() * 8);
    deltas.push(text.slice(i, i + size));
    i += size;
  }
  return deltas;
}

function streamAll(streams: readonly (readonly string[])[], end: boolean): unknown {
  let last: unknown;
  for (const deltas of streams) {
    const parser = new IncrementalParser(LIMITS);
    for (const delta of deltas) last = parser.push(delta);
    if (end) last = parser.end();
  }
  return last;
}

function row(label: string, texts: readonly string[], timing: ComparisonOptions, seed: number): StreamingRow {
  const streams = texts.map((text, i) => deltasOf(text, seed + i));
  for (const text of texts) {
    const whole = parseJson(text, LIMITS);
    if (!whole.ok) throw new Error(`parseJson refused a ${label} text: ${whole.error.message}`);
  }
  const cmp = compareInterleaved(
    [
      {
        name: "parseJson",
        fn: () => {
          let last: unknown;
          for (const text of texts) last = parseJson(text, LIMITS);
          return last;
        },
      },
      { name: "stream", fn: () => streamAll(streams, true) },
      { name: "push only", fn: () => streamAll(streams, false) },
    ],
    timing,
  );
  return {
    label,
    texts: texts.length,
    bytes: texts.reduce((n, t) => n + Buffer.byteLength(t), 0),
    deltas: streams.reduce((n, s) => n + s.length, 0),
    parseJson: cmp.perCall.parseJson!,
    stream: cmp.ratio.stream!,
    pushOnly: cmp.ratio["push only"]!,
  };
}

export function runStreaming(cases: readonly CallCase[], timing: ComparisonOptions): StreamingResult {
  const calls = row(
    "benchmark calls (tagged wire)",
    cases.map((c) => c.taggedText),
    timing,
    1,
  );
  const large = SHAPES.map((shape) => row(`100 KB ${shape}`, [makeDocument(shape, 100_000)], timing, 7));
  return {
    calls,
    large,
    largeStream: geomean(large.map((r) => r.stream.median)),
    largePushOnly: geomean(large.map((r) => r.pushOnly.median)),
  };
}

export function renderStreaming(r: StreamingResult): string {
  const rows = [r.calls, ...r.large];
  return [
    "## Streaming: the incremental parser over deltas of 1–8 characters vs one parseJson",
    "",
    "Ratios against parseJson of the whole text in the same round; median over rounds (p25–p75). stream = every push, then end() (which is one parseJson); push only = the incremental parser's own share.",
    "",
    table(
      ["texts", "count", "bytes", "deltas", "parseJson", "stream ratio", "push only ratio"],
      rows.map((x) => [
        x.label,
        x.texts,
        x.bytes,
        x.deltas,
        fmtMs(x.parseJson.median),
        fmtSummary(x.stream),
        fmtSummary(x.pushOnly),
      ]),
    ),
    "",
    `Benchmark calls: stream ${r.calls.stream.median.toFixed(2)}x parseJson (push only ${r.calls.pushOnly.median.toFixed(2)}x); 100 KB, geometric mean over shapes: stream ${r.largeStream.toFixed(2)}x (push only ${r.largePushOnly.toFixed(2)}x). Goal: stream ≤ 2x.`,
  ].join("\n");
}
