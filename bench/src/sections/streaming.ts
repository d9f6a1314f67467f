/**
 * Streaming (issue 28): the cost of reading a call's arguments as the model
 * writes them, in deltas of 1 to 8 characters, through the incremental parser
 * (every push, then end()), as a ratio to one parseJson of the whole text in
 * the same round. "push only" is the incremental parser's own share; end()
 * is one parseJson of the accumulated text, so stream ≈ push only + 1.
 *
 * The parser is not public, so it is imported from the codec's source, with
 * the parseJson it is compared to.
 *
 * Then the streaming decoder (codec.streamDecoder(): the parser, the partial
 * source value after every push, end() = decode) over one codec.decode of the
 * whole text: on the benchmark's calls (tagged wire) and on 100 KB calls of
 * four codecs (records with an optional member, a long string, a map, any JSON).
 * In the same rounds: the floor under any stream reader and the incremental
 * JSON parsers users reach for (stream-floor.ts).
 */
import { type Codec, compileCodec } from "@strictwire/codec";
import { IncrementalParser } from "../../../packages/codec/src/parse/incremental.js";
import { parseJson } from "../../../packages/codec/src/parse/json.js";
import { parseTextByScanner } from "../../../packages/codec/src/parse/parser.js";
import { CodecStreamDecoder } from "../../../packages/codec/src/stream/decoder.js";
import type { CallCase } from "../cases.js";
import { random } from "../corpora.js";
import { table } from "../format.js";
import { type ComparisonOptions, compareInterleaved, fmtMs, fmtSummary, geomean, type Summary } from "../stats.js";
import { makeDocument, SHAPES } from "./parse.js";
import { aiSdkPartialRow, floorOf, floorTasks, receiveAll, type StreamFloor } from "./stream-floor.js";

/** Limits raised so that every 100 KB document is within them. */
export const LIMITS = { maxBytes: 8_000_000, maxNodes: 10_000_000, maxDepth: 64 };

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
  /** The deltas received (kept, searched for a quote or backslash), then one parseJson of the text: the floor. */
  readonly floor: Summary;
}

export interface StreamingResult {
  readonly calls: StreamingRow;
  readonly large: readonly StreamingRow[];
  /** Geometric means over the 100 KB shapes of the median ratios. */
  readonly largeStream: number;
  readonly largePushOnly: number;
  readonly largeFloor: number;
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
      {
        name: "floor",
        fn: () => {
          let last: unknown;
          for (const r of receiveAll(streams)) last = parseJson(r.text, LIMITS);
          return last;
        },
      },
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
    floor: cmp.ratio.floor!,
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
    largeFloor: geomean(large.map((r) => r.floor.median)),
  };
}

export interface DecoderRow {
  readonly label: string;
  readonly texts: number;
  readonly bytes: number;
  readonly deltas: number;
  readonly decode: Summary;
  /** Every push, then end(), over decode, per round. */
  readonly stream: Summary;
  /** Every push without end(), over decode, per round. */
  readonly pushOnly: Summary;
  /**
   * The walking decoder (stream/decoder.ts: the parser's tree mapped after each push), every push then end(),
   * over decode: what streamDecoder() gives where the fast path (stream/lockstep.ts) does not read the plan.
   */
  readonly walking: Summary;
  /** The incremental parser's pushes alone (no partial value), over decode: the parsing share of push only. */
  readonly parserOnly: Summary;
  /**
   * The whole text read once by the codec's JavaScript scanner (no deltas, no
   * partial value), over decode: what any reader written in JavaScript pays
   * against decode's native JSON.parse, a floor under every streaming ratio.
   */
  readonly jsScan: Summary;
  /** The pushes' time (push only) per push, in milliseconds: what a delta costs the application. */
  readonly perPush: number;
  /** The least any stream reader pays, and the incremental JSON parsers users reach for (stream-floor.ts). */
  readonly floor: StreamFloor;
}

export interface DecoderResult {
  readonly calls: DecoderRow;
  readonly large: readonly DecoderRow[];
  /** Geometric means over the 100 KB codecs of the median ratios. */
  readonly largeStream: number;
  readonly largePushOnly: number;
  readonly largeFloor: number;
  /** Stream over floor (the medians' ratio): on the calls, geometric mean over the 100 KB codecs, on any JSON. */
  readonly callsVsFloor: number;
  readonly largeVsFloor: number;
  readonly anyJsonVsFloor: number;
  /** The AI SDK's partial parse (ai@6, per delta, on the text so far) over decode, on the calls' same deltas. */
  readonly callsAiSdkPartial: Summary;
}

/** Issue 42: the stream decoder, partial value read after every push, over the floor (receive, then decode). */
export const FLOOR_GOALS = { calls: 2.5, large: 2.5, anyJson: 5 };

const vsFloor = (r: DecoderRow): number => r.stream.median / r.floor.receiveDecode.median;

export interface CodecText {
  readonly codec: Codec;
  readonly text: string;
}

export function decodeAll(calls: readonly CodecText[]): unknown {
  let last: unknown;
  for (const { codec, text } of calls) last = codec.decode(text, { limits: LIMITS });
  return last;
}

/** The walking decoder over the same deltas, every push then end(). */
function walkingDecodeAll(calls: readonly CodecText[], streams: readonly (readonly string[])[]): unknown {
  let last: unknown;
  for (let i = 0; i < calls.length; i++) {
    const decoder = new CodecStreamDecoder(calls[i]!.codec, { limits: LIMITS });
    for (const delta of streams[i]!) last = decoder.push(delta);
    last = decoder.end();
  }
  return last;
}

export function streamDecodeAll(
  calls: readonly CodecText[],
  streams: readonly (readonly string[])[],
  end: boolean,
): unknown {
  let last: unknown;
  for (let i = 0; i < calls.length; i++) {
    const decoder = calls[i]!.codec.streamDecoder({ limits: LIMITS });
    for (const delta of streams[i]!) last = decoder.push(delta);
    if (end) last = decoder.end();
  }
  return last;
}

function decoderRow(
  label: string,
  calls: readonly CodecText[],
  timing: ComparisonOptions,
  seed: number,
  reparse: boolean,
): DecoderRow {
  const streams = calls.map(({ text }, i) => deltasOf(text, seed + i));
  for (const { codec, text } of calls) {
    const whole = codec.decode(text, { limits: LIMITS });
    if (!whole.ok) throw new Error(`decode refused a ${label} text: ${whole.error.message}`);
  }
  const cmp = compareInterleaved(
    [
      { name: "decode", fn: () => decodeAll(calls) },
      { name: "stream", fn: () => streamDecodeAll(calls, streams, true) },
      { name: "push only", fn: () => streamDecodeAll(calls, streams, false) },
      { name: "walking", fn: () => walkingDecodeAll(calls, streams) },
      { name: "parser only", fn: () => streamAll(streams, false) },
      {
        name: "JS scan",
        fn: () => {
          let last: unknown;
          for (const { text } of calls) last = parseTextByScanner(text, LIMITS);
          return last;
        },
      },
      ...floorTasks(calls, streams, LIMITS, reparse),
    ],
    timing,
  );
  const deltas = streams.reduce((n, s) => n + s.length, 0);
  return {
    perPush: (cmp.perCall.decode!.median * cmp.ratio["push only"]!.median) / deltas,
    parserOnly: cmp.ratio["parser only"]!,
    jsScan: cmp.ratio["JS scan"]!,
    label,
    texts: calls.length,
    bytes: calls.reduce((n, { text }) => n + Buffer.byteLength(text), 0),
    deltas: streams.reduce((n, s) => n + s.length, 0),
    decode: cmp.perCall.decode!,
    stream: cmp.ratio.stream!,
    pushOnly: cmp.ratio["push only"]!,
    walking: cmp.ratio.walking!,
    floor: floorOf(cmp),
  };
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];

/** 100 KB calls: a schema and a value of about 100 KB for it, encoded. */
export function largeCalls(): { label: string; call: CodecText }[] {
  const compile = (schema: object): Codec => {
    const compiled = compileCodec(schema, { name: "large", presence: "tagged", limits: LIMITS });
    if (!compiled.ok) throw new Error(compiled.error.message);
    return compiled.value;
  };
  const record = {
    type: "object",
    properties: {
      id: { type: "integer" },
      name: { type: "string" },
      active: { type: "boolean" },
      score: { type: "number" },
      tags: { type: "array", items: { type: "string" } },
      owner: {
        type: "object",
        properties: { id: { type: "integer" }, email: { type: "string" }, role: { type: ["string", "null"] } },
        required: ["id", "email", "role"],
        additionalProperties: false,
      },
      note: { type: "string" },
      created_at: { type: "string" },
    },
    required: ["id", "name", "active", "score", "tags", "owner", "created_at"],
    additionalProperties: false,
  };
  const root = (properties: object) => ({
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  });
  const documents: [string, Codec, unknown][] = [
    [
      "records (optional members tagged)",
      compile(root({ items: { type: "array", items: record }, count: { type: "integer" } })),
      JSON.parse(makeDocument("object", 100_000)),
    ],
    [
      "a long string",
      compile(root({ body: { type: "string" } })),
      { body: (JSON.parse(makeDocument("string", 100_000)) as string[]).join("\n") },
    ],
    [
      "a map (entries)",
      compile(root({ headers: { type: "object", additionalProperties: { type: "string" } } })),
      {
        headers: Object.fromEntries(
          Array.from({ length: 2500 }, (_, i) => [`x-header-${i}`, `${WORDS[i % WORDS.length]}-${i}`]),
        ),
      },
    ],
    ["any JSON", compile(root({ data: {} })), { data: JSON.parse(makeDocument("array", 100_000)) }],
  ];
  return documents.map(([label, codec, value]) => {
    const encoded = codec.encode(value);
    if (!encoded.ok) throw new Error(`${label}: ${encoded.error.message}`);
    return { label: `100 KB ${label}`, call: { codec, text: JSON.stringify(encoded.value) } };
  });
}

export async function runStreamDecoder(cases: readonly CallCase[], timing: ComparisonOptions): Promise<DecoderResult> {
  const callTexts = cases.map((c) => ({ codec: c.tagged, text: c.taggedText }));
  const calls = decoderRow("benchmark calls (tagged wire)", callTexts, timing, 1, true);
  // partial-json parses the whole text again per delta: minutes on a 100 KB text, so on the calls only.
  const large = largeCalls().map(({ label, call }) => decoderRow(label, [call], timing, 7, false));
  // The same deltas as the calls' row (same seeds).
  const streams = callTexts.map(({ text }, i) => deltasOf(text, 1 + i));
  const callsAiSdkPartial = await aiSdkPartialRow(() => decodeAll(callTexts), streams, timing.rounds, timing.timeMs);
  const anyJson = large.find((r) => r.label.endsWith("any JSON"));
  return {
    calls,
    large,
    largeStream: geomean(large.map((r) => r.stream.median)),
    largePushOnly: geomean(large.map((r) => r.pushOnly.median)),
    largeFloor: geomean(large.map((r) => r.floor.receiveDecode.median)),
    callsVsFloor: vsFloor(calls),
    largeVsFloor: geomean(large.map(vsFloor)),
    anyJsonVsFloor: anyJson === undefined ? Number.NaN : vsFloor(anyJson),
    callsAiSdkPartial,
  };
}

export function renderStreamDecoder(r: DecoderResult): string {
  const rows = [r.calls, ...r.large];
  return [
    "## Streaming: codec.streamDecoder() over deltas of 1–8 characters vs one codec.decode",
    "",
    "Ratios against codec.decode of the whole text in the same round; median over rounds (p25–p75). stream = every push (the parser, the early-refusal check and the partial source value, read after each push), then end() (decode's result, from the parser's value); push only = the pushes alone; walking decoder = stream/decoder.ts alone, every push then end() (what streamDecoder() gives for a plan the fast path, stream/lockstep.ts, does not read: the benchmark calls' stream row mixes both); parser only = the incremental parser's pushes without the partial value or the check; JS scan = the whole text read once by the codec's JavaScript scanner (no deltas): what a JavaScript reader pays against decode's native JSON.parse; per push = the pushes' time over their number.",
    "",
    table(
      [
        "texts",
        "count",
        "bytes",
        "deltas",
        "decode",
        "stream ratio",
        "push only ratio",
        "walking decoder",
        "parser only",
        "JS scan",
        "per push",
      ],
      rows.map((x) => [
        x.label,
        x.texts,
        x.bytes,
        x.deltas,
        fmtMs(x.decode.median),
        fmtSummary(x.stream),
        fmtSummary(x.pushOnly),
        fmtSummary(x.walking),
        fmtSummary(x.parserOnly),
        fmtSummary(x.jsScan),
        fmtMs(x.perPush),
      ]),
    ),
    "",
    `Benchmark calls: stream ${r.calls.stream.median.toFixed(2)}x decode (push only ${r.calls.pushOnly.median.toFixed(2)}x); 100 KB, geometric mean over codecs: stream ${r.largeStream.toFixed(2)}x (push only ${r.largePushOnly.toFixed(2)}x). The goals stand against the floor (below).`,
    "",
    "### The floor and the peers, in the same rounds",
    "",
    "Ratios against the same decode. receive = the least any push does, whatever its design: the delta kept (the text grows by it) and searched for a quote or a backslash, nothing parsed or shown; floor = receive, then one decode of the text received (end()'s result with nothing read per push); stream / floor = the stream median over the floor median; jsonparse, @streamparser/json = those incremental JSON parsers alone (the final value only: no partial value, no schema); partial-json = the whole text so far parsed again at every delta, as most tools make a partial value today (quadratic: timed on the calls only).",
    "",
    table(
      [
        "texts",
        "receive",
        "floor",
        "stream / floor",
        "walking / floor",
        "jsonparse",
        "@streamparser/json",
        "partial-json",
      ],
      rows.map((x) => [
        x.label,
        fmtSummary(x.floor.receive),
        fmtSummary(x.floor.receiveDecode),
        (x.stream.median / x.floor.receiveDecode.median).toFixed(2),
        (x.walking.median / x.floor.receiveDecode.median).toFixed(2),
        fmtSummary(x.floor.jsonparse),
        fmtSummary(x.floor.streamparser),
        x.floor.reparse === undefined ? "—" : fmtSummary(x.floor.reparse),
      ]),
    ),
    "",
    `Floor (receive, then decode): benchmark calls ${r.calls.floor.receiveDecode.median.toFixed(2)}x decode; 100 KB, geometric mean over codecs: ${r.largeFloor.toFixed(2)}x.`,
    "",
    `The AI SDK's own partial value on the calls' same deltas (ai@6: each delta appended, then \`await parsePartialJson(text so far)\`; its own rounds alternating with decode): ${fmtSummary(r.callsAiSdkPartial)} decode, ${(r.callsAiSdkPartial.median / r.calls.floor.receiveDecode.median).toFixed(2)}x the floor. No schema: the wire form, not the source form.`,
    "",
    "Goals against the floor (issue 42; figures on a loaded machine are indicative only):",
    "",
    goalLine("benchmark calls", r.callsVsFloor, FLOOR_GOALS.calls),
    goalLine("100 KB, geometric mean over codecs", r.largeVsFloor, FLOOR_GOALS.large),
    goalLine("100 KB any JSON", r.anyJsonVsFloor, FLOOR_GOALS.anyJson),
  ].join("\n");
}

function goalLine(label: string, ratio: number, goal: number): string {
  return `- stream / floor, ${label}: ${ratio.toFixed(2)} (goal ≤ ${goal}: ${ratio <= goal ? "met" : "NOT met"})`;
}

export function renderStreaming(r: StreamingResult): string {
  const rows = [r.calls, ...r.large];
  return [
    "## Streaming: the incremental parser over deltas of 1–8 characters vs one parseJson",
    "",
    "Ratios against parseJson of the whole text in the same round; median over rounds (p25–p75). stream = every push, then end() (which is one parseJson); push only = the incremental parser's own share; floor = the deltas only received (each kept and searched for a quote or a backslash), then one parseJson of the text.",
    "",
    table(
      ["texts", "count", "bytes", "deltas", "parseJson", "stream ratio", "push only ratio", "floor"],
      rows.map((x) => [
        x.label,
        x.texts,
        x.bytes,
        x.deltas,
        fmtMs(x.parseJson.median),
        fmtSummary(x.stream),
        fmtSummary(x.pushOnly),
        fmtSummary(x.floor),
      ]),
    ),
    "",
    `Benchmark calls: stream ${r.calls.stream.median.toFixed(2)}x parseJson (push only ${r.calls.pushOnly.median.toFixed(2)}x, floor ${r.calls.floor.median.toFixed(2)}x); 100 KB, geometric mean over shapes: stream ${r.largeStream.toFixed(2)}x (push only ${r.largePushOnly.toFixed(2)}x, floor ${r.largeFloor.toFixed(2)}x). Goal: stream ≤ 2x.`,
  ].join("\n");
}
