/**
 * Streaming's scaling (issue 42): whether a push costs what it added, whatever
 * the schema. Texts of 1k to 120k characters streamed in one-character deltas
 * (as real providers send them) through codec.streamDecoder(), the partial
 * value read after every push, then end(); the total time against the length,
 * and the slope of its log-log fit: 1 is linear, 2 quadratic.
 *
 * The texts are the shapes where a push could cost the whole prefix again: a
 * string that keeps matching a long enum value (early refusal compares it
 * with the allowed values), a member name that keeps matching a long declared
 * name (the same, for closed objects), a long string, many small containers
 * (the spine changes at every one), and any JSON.
 *
 * Beside each, the floor's slope on the same texts and one-character deltas
 * (stream-floor.ts: each delta received, then one decode): what the engine
 * itself pays as the text grows. A text whose values all stay alive (the
 * floor keeps the text, decode its value) costs the collector more per
 * character as it outgrows the young generation, so even the floor's slope
 * can exceed 1; the goal stays on the stream decoder's slope. Beside it, the
 * slope of stream / floor (the stream's slope less the floor's): what the
 * decoder adds to what the engine and the machine's caches charge any reader
 * for a longer text, which a slope alone cannot tell apart.
 */
import { type Codec, compileCodec } from "@strictwire/codec";
import { table } from "../format.js";
import { fmtMs, logLogSlope } from "../stats.js";
import { makeDocument } from "./parse.js";
import { receiveAll } from "./stream-floor.js";
import { LIMITS } from "./streaming.js";

export const SCALING_LENGTHS = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 120_000];

/** The slope goal: total time grows at most this power of the length. */
export const SCALING_GOAL = 1.05;

/** The same margin over the floor: stream / floor grows at most this power of the length. */
export const SCALING_OVER_FLOOR_GOAL = 0.05;

export interface ScalingRow {
  readonly label: string;
  readonly key: string;
  /** Per length: the text's length in characters and the least total time over the rounds, in ms. */
  readonly points: readonly { readonly length: number; readonly ms: number }[];
  /** The slope of log(time) against log(length), least squares. */
  readonly slope: number;
  /** The floor's (each one-character delta received, then one decode): its least total time per length, and its slope. */
  readonly floorPoints: readonly { readonly length: number; readonly ms: number }[];
  readonly floorSlope: number;
  /** The slope of log(stream / floor) against log(length): the stream's slope less the floor's. */
  readonly overFloor: number;
}

export interface ScalingResult {
  readonly rows: readonly ScalingRow[];
  readonly goal: number;
  readonly overFloorGoal: number;
}

/** Compiled for Anthropic: OpenAI's target caps the schema's strings at 120,000 characters, below the longest text. */
function compile(schema: object): Codec {
  const compiled = compileCodec(schema, { name: "scaling", target: "anthropic", presence: "tagged", limits: LIMITS });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

const closed = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

/** The wire text of a source value (any JSON travels as JSON text in a string). */
function wireText(codec: Codec, value: unknown): string {
  const encoded = codec.encode(value);
  if (!encoded.ok) throw new Error(encoded.error.message);
  return JSON.stringify(encoded.value);
}

/** One shape: a codec and its wire text of about `length` characters (decode accepts it). */
interface Shape {
  readonly label: string;
  /** The row's name in the JSON output. */
  readonly key: string;
  make(length: number): { codec: Codec; text: string };
}

const SHAPES: readonly Shape[] = [
  {
    label: "a long enum value",
    key: "enumValue",
    make(length) {
      // Two values sharing the written prefix: the string matches one, then must be checked against both.
      const value = "a".repeat(length);
      const codec = compile(closed({ v: { enum: [`${value}b`, value] } }));
      return { codec, text: JSON.stringify({ v: value }) };
    },
  },
  {
    label: "a long member name",
    key: "memberName",
    make(length) {
      const name = "n".repeat(length);
      const codec = compile(closed({ [`${name}x`]: { type: "integer" }, [name]: { type: "integer" } }));
      return { codec, text: JSON.stringify({ [`${name}x`]: 1, [name]: 2 }) };
    },
  },
  {
    label: "a long string",
    key: "longString",
    make(length) {
      const codec = compile(closed({ body: { type: "string" } }));
      const words = "the quick brown fox jumps over the lazy dog ";
      return { codec, text: JSON.stringify({ body: words.repeat(Math.ceil(length / words.length)).slice(0, length) }) };
    },
  },
  {
    label: "many small containers",
    key: "containers",
    make(length) {
      const codec = compile(
        closed({ items: { type: "array", items: closed({ a: { type: "integer" }, b: { type: "array" } }) } }),
      );
      const items = Array.from({ length: Math.ceil(length / 16) }, (_, i) => ({ a: i % 100, b: [] }));
      return { codec, text: JSON.stringify({ items }) };
    },
  },
  {
    label: "any JSON",
    key: "anyJson",
    make(length) {
      const codec = compile(closed({ data: {} }));
      return { codec, text: wireText(codec, { data: JSON.parse(makeDocument("array", length)) }) };
    },
  },
];

/** Every one-character push, the partial value read after each, then end(): the total time in ms. */
function streamOnce(codec: Codec, text: string): number {
  const t0 = performance.now();
  const decoder = codec.streamDecoder({ limits: LIMITS });
  let shown: unknown;
  for (let i = 0; i < text.length; i++) {
    const step = decoder.push(text[i]!);
    if (!step.ok) throw new Error(`the stream decoder refused a text decode accepts: ${step.error.message}`);
    shown = step.value;
  }
  const result = decoder.end();
  const ms = performance.now() - t0;
  if (!result.ok || shown === undefined) throw new Error("the scaling text did not decode");
  return ms;
}

/** The floor on the same deltas (stream-floor.ts: each delta received, then one decode of the text): the total time in ms. */
function floorOnce(codec: Codec, deltas: readonly string[]): number {
  const t0 = performance.now();
  const [received] = receiveAll([deltas]);
  const result = codec.decode(received!.text, { limits: LIMITS });
  const ms = performance.now() - t0;
  if (!result.ok) throw new Error("the scaling text did not decode");
  return ms;
}

export function runStreamScaling(rounds: number): ScalingResult {
  const rows = SHAPES.map((shape) => {
    const points: { length: number; ms: number }[] = [];
    const floorPoints: { length: number; ms: number }[] = [];
    for (const length of SCALING_LENGTHS) {
      const { codec, text } = shape.make(length);
      const whole = codec.decode(text, { limits: LIMITS });
      if (!whole.ok) throw new Error(`${shape.label}: decode refused the text: ${whole.error.message}`);
      // Warm-up, then the least of the rounds: a shared machine's load only adds time (the shortest texts get more
      // rounds, so each length gets a similar time). The stream and the floor alternate, so both see the same load.
      const deltas = [...text];
      streamOnce(codec, text);
      floorOnce(codec, deltas);
      const n = Math.max(rounds, Math.ceil((rounds * SCALING_LENGTHS.at(-1)!) / length / 4));
      const times: number[] = [];
      const floorTimes: number[] = [];
      for (let r = 0; r < n; r++) {
        times.push(streamOnce(codec, text));
        floorTimes.push(floorOnce(codec, deltas));
      }
      points.push({ length: text.length, ms: Math.min(...times) });
      floorPoints.push({ length: text.length, ms: Math.min(...floorTimes) });
    }
    return {
      label: shape.label,
      key: shape.key,
      points,
      slope: logLogSlope(points.map((p) => [p.length, p.ms])),
      floorPoints,
      floorSlope: logLogSlope(floorPoints.map((p) => [p.length, p.ms])),
      overFloor: logLogSlope(points.map((p, i) => [p.length, p.ms / floorPoints[i]!.ms])),
    };
  });
  return { rows, goal: SCALING_GOAL, overFloorGoal: SCALING_OVER_FLOOR_GOAL };
}

export function renderStreamScaling(r: ScalingResult): string {
  const lengths = r.rows[0]?.points.map((p) => p.length) ?? [];
  return [
    "## Streaming: scaling in one-character deltas (codec.streamDecoder(), the partial value read after every push, then end())",
    "",
    "Total time per text (the least over rounds; absolute, for orientation on this machine) at about 1k to 120k characters; slope = least-squares slope of log(time) against log(length): 1 is linear, 2 quadratic; floor slope = the same for the floor on the same deltas (each received, then one decode), timed in the same rounds; over floor = the slope of stream / floor (the two slopes' difference): what the decoder adds to what any reader of a longer text pays this machine.",
    "",
    table(
      ["texts", ...lengths.map((n) => `${Math.round(n / 1000)}k`), "slope", "floor slope", "over floor"],
      r.rows.map((row) => [
        row.label,
        ...row.points.map((p) => fmtMs(p.ms)),
        row.slope.toFixed(3),
        row.floorSlope.toFixed(3),
        signed(row.overFloor),
      ]),
    ),
    "",
    goalLine(r),
  ].join("\n");
}

const signed = (x: number): string => `${x < 0 ? "−" : "+"}${Math.abs(x).toFixed(3)}`;

function goalLine(r: ScalingResult): string {
  const over = r.rows.filter((row) => row.slope > r.goal).map((row) => row.label);
  const overFloor = r.rows.filter((row) => row.overFloor > r.overFloorGoal).map((row) => row.label);
  const verdict = (labels: string[]) => (labels.length === 0 ? "met" : `not met (${labels.join(", ")})`);
  return [
    `Goal: slope ≤ ${r.goal} for every text: ${verdict(over)}. On a loaded machine the slope moves with the load: run it alone.`,
    `Against the floor in the same rounds: over floor ≤ +${r.overFloorGoal} for every text: ${verdict(overFloor)}.`,
  ].join("\n");
}
