/**
 * The AI SDK transform (aiSdkSourceInput, issue 28): the cost of rewriting a
 * call's tool-input-delta texts into the partial source value's JSON text,
 * in deltas of 1 to 8 characters, as a ratio to one codec.decode of the whole
 * text in the same round. "transform" is every delta through one call's
 * rewriting (its stream decoder's push, then the text written) and the
 * closers at tool-input-end; "decoder" is the stream decoder's pushes alone,
 * so transform − decoder is the rewriting's own share.
 *
 * The per-call rewriting is not public (the transform is a TransformStream),
 * so it is imported from the codec's source.
 */
import { compileCodec } from "@strictwire/codec";
import { SourceInputCall } from "../../../packages/codec/src/stream/ai-sdk.js";
import type { CallCase } from "../cases.js";
import { table } from "../format.js";
import { type ComparisonOptions, compareInterleaved, fmtMs, fmtSummary, type Summary } from "../stats.js";
import { type CodecText, decodeAll, deltasOf, LIMITS, streamDecodeAll } from "./streaming.js";

export interface AiSdkStreamRow {
  readonly label: string;
  readonly texts: number;
  readonly bytes: number;
  readonly deltas: number;
  readonly decode: Summary;
  /** Every delta rewritten, then the closers, over decode, per round. */
  readonly transform: Summary;
  /** The stream decoder's pushes alone, over decode. */
  readonly decoder: Summary;
}

function transformAll(calls: readonly CodecText[], streams: readonly (readonly string[])[]): string {
  let written = "";
  for (let i = 0; i < calls.length; i++) {
    const call = new SourceInputCall("c", "tool", calls[i]!.codec, {});
    for (const delta of streams[i]!) written = call.push(delta);
    written = call.close();
  }
  return written;
}

function row(label: string, calls: readonly CodecText[], timing: ComparisonOptions, seed: number): AiSdkStreamRow {
  const streams = calls.map(({ text }, i) => deltasOf(text, seed + i));
  for (const { codec, text } of calls) {
    if (!codec.decode(text).ok) throw new Error(`decode refused a ${label} text`);
  }
  const cmp = compareInterleaved(
    [
      { name: "decode", fn: () => decodeAll(calls) },
      { name: "transform", fn: () => transformAll(calls, streams) },
      { name: "decoder", fn: () => streamDecodeAll(calls, streams, false) },
    ],
    timing,
  );
  return {
    label,
    texts: calls.length,
    bytes: calls.reduce((n, { text }) => n + Buffer.byteLength(text), 0),
    deltas: streams.reduce((n, s) => n + s.length, 0),
    decode: cmp.perCall.decode!,
    transform: cmp.ratio.transform!,
    decoder: cmp.ratio.decoder!,
  };
}

/** A call of 1,000 map entries next to a 100 KB string: every entry is a change beside a long completed value. */
function mapBesideString(): CodecText {
  const compiled = compileCodec(
    {
      type: "object",
      properties: {
        body: { type: "string" },
        headers: { type: "object", additionalProperties: { type: "string" } },
      },
      required: ["body", "headers"],
      additionalProperties: false,
    },
    { name: "mapBesideString", presence: "tagged", limits: LIMITS },
  );
  if (!compiled.ok) throw new Error(compiled.error.message);
  const value = {
    body: "lorem ipsum dolor sit amet ".repeat(3704).slice(0, 100_000),
    headers: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-header-${i}`, `value-${i}`])),
  };
  const encoded = compiled.value.encode(value);
  if (!encoded.ok) throw new Error(encoded.error.message);
  return { codec: compiled.value, text: JSON.stringify(encoded.value) };
}

export function runAiSdkStream(cases: readonly CallCase[], timing: ComparisonOptions): AiSdkStreamRow[] {
  return [
    row(
      "benchmark calls (tagged wire)",
      cases.map((c) => ({ codec: c.tagged, text: c.taggedText })),
      timing,
      1,
    ),
    row("1,000 map entries + a 100 KB string", [mapBesideString()], timing, 7),
  ];
}

export function renderAiSdkStream(rows: readonly AiSdkStreamRow[]): string {
  return [
    "## Streaming: the AI SDK transform (aiSdkSourceInput) over deltas of 1–8 characters vs one codec.decode",
    "",
    "Ratios against codec.decode of the whole text in the same round; median over rounds (p25–p75). transform = every delta rewritten into the partial source value's text (the stream decoder's push included), then the closers; decoder = the stream decoder's pushes alone.",
    "",
    table(
      ["texts", "count", "bytes", "deltas", "decode", "transform ratio", "decoder ratio"],
      rows.map((x) => [
        x.label,
        x.texts,
        x.bytes,
        x.deltas,
        fmtMs(x.decode.median),
        fmtSummary(x.transform),
        fmtSummary(x.decoder),
      ]),
    ),
  ].join("\n");
}
