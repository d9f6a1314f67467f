/**
 * Hostile inputs (issue 9): whether a refusal costs time linear in the size of
 * what is refused. The shapes are the reliability tests' (packages/codec/testkit/bombs.ts),
 * which check only that each is refused with its code: decode bombs at 1 and
 * 4 MB, the catastrophic pattern (a+)+$ matched by RE2 at 200k and 800k
 * characters, and the schema bombs whose size can vary, compiled at two sizes.
 *
 * Both sizes of a shape are timed interleaved in the same rounds (stats.ts), so
 * their ratio is measured under the same load; the slope is log(ratio) over
 * log(size ratio): 1 is linear, 2 quadratic, about 0 a refusal at a fixed budget.
 */
import { type Codec, compile, compileCodec, type ParseLimits } from "@strictwire/codec";
import {
  arrayBomb,
  arrayChain,
  BOMB_SCHEMA,
  bigEnum,
  bombArgs,
  flat,
  HOSTILE_SHAPES,
  MB,
  nestedAnyOf,
  nestedItems,
  obj,
  objectBomb,
  PATTERN_BOMB,
  patternBombText,
  ROOMY_LIMITS,
  referenceChain,
} from "../../../packages/codec/testkit/bombs.js";
import { progress, table } from "../format.js";
import { type ComparisonOptions, compareInterleaved, fmtMs, fmtSummary, type Summary } from "../stats.js";

/** The slope goal: a refusal's time grows at most this power of the size (linear, with room for noise). */
export const HOSTILE_GOAL = 1.2;

export interface HostileRow {
  readonly group: "decode" | "pattern" | "compile";
  readonly label: string;
  readonly key: string;
  /** The refusal's code at both sizes. */
  readonly code: string;
  readonly unit: string;
  readonly sizes: readonly [number, number];
  /** Per size: milliseconds per call, one sample per round. */
  readonly ms: readonly [Summary, Summary];
  /** The large size's time over the small one's, per round. */
  readonly ratio: Summary;
  /** log(median ratio) / log(size ratio). */
  readonly slope: number;
}

export interface HostileResult {
  readonly rows: readonly HostileRow[];
  readonly goal: number;
}

/** One shape at one size: its measured size, and a call that refuses it and returns the code. */
interface Prepared {
  readonly size: number;
  readonly run: () => string;
}

interface Shape {
  readonly group: HostileRow["group"];
  readonly label: string;
  readonly key: string;
  readonly code: string;
  readonly unit: string;
  readonly sizes: readonly [number, number];
  prepare(size: number): Prepared;
}

function codecOf(schema: unknown): Codec {
  const compiled = compileCodec(schema);
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

const outcome = (r: { ok: boolean; error?: { code: string } }): string => (r.ok ? "accepted" : r.error!.code);

/** A decode of `input` under `limits`; strings flattened, so the reader is timed and not V8 joining a rope. */
function decodeShape(codec: Codec, input: string | Uint8Array, limits?: Partial<ParseLimits>): Prepared {
  const given = typeof input === "string" ? flat(input) : input;
  const size = typeof given === "string" ? Buffer.byteLength(given) : given.length;
  const options = limits === undefined ? undefined : { limits };
  return { size, run: () => outcome(codec.decode(given, options)) };
}

function shapes(): Shape[] {
  const bombs = codecOf(BOMB_SCHEMA);
  const decodeSizes = [MB, 4 * MB] as const;
  const decode = (
    label: string,
    key: string,
    code: string,
    make: (size: number) => string | Uint8Array,
    limits: Partial<ParseLimits> | undefined,
    sizes: readonly [number, number] = decodeSizes,
  ): Shape => ({
    group: "decode",
    label,
    key,
    code,
    unit: "bytes",
    sizes,
    prepare: (size) => decodeShape(bombs, make(size), limits),
  });
  const pattern = codecOf(obj({ type: "string", pattern: PATTERN_BOMB }));
  const compiled = (
    label: string,
    key: string,
    code: string,
    unit: string,
    sizes: readonly [number, number],
    make: (n: number) => unknown,
  ): Shape => ({
    group: "compile",
    label,
    key,
    code,
    unit,
    sizes,
    prepare: (n) => {
      const schema = make(n);
      return { size: n, run: () => outcome(compile(schema)) };
    },
  });
  return [
    ...HOSTILE_SHAPES.map((s) => decode(s.name, s.key, s.expect, s.make, ROOMY_LIMITS)),
    decode(
      "nested arrays, by depth once the size allows",
      "depthArrays",
      "too-deep",
      (n) => bombArgs(arrayBomb(Math.floor(n / 2))),
      {
        maxBytes: 32 * MB,
        maxNodes: 32 * MB,
      },
    ),
    decode(
      "nested objects, by depth once the size allows",
      "depthObjects",
      "too-deep",
      (n) => bombArgs(objectBomb(Math.floor(n / 6))),
      {
        maxBytes: 32 * MB,
        maxNodes: 32 * MB,
      },
    ),
    decode(
      "zeros, by node count once the size allows",
      "zeros",
      "too-many-nodes",
      (n) => bombArgs(`[${"0,".repeat(Math.floor(n / 2))}0]`),
      {
        maxBytes: 32 * MB,
      },
    ),
    decode(
      "a valid text over the size limit (default limits)",
      "tooLarge",
      "input-too-large",
      (n) => bombArgs(`"${"a".repeat(n)}"`),
      undefined,
      [10 * MB, 40 * MB],
    ),
    {
      group: "pattern",
      label: `${PATTERN_BOMB} under RE2, n letters a and a "!"`,
      key: "pattern",
      code: "wire-violation",
      unit: "characters",
      sizes: [200_000, 800_000],
      prepare: (n) => decodeShape(pattern, patternBombText(n)),
    },
    compiled(
      "anyOf nested k deep, doubling (2^k leaves)",
      "nestedAnyOf",
      "schema-too-large",
      "leaves",
      [2 ** 16, 2 ** 18],
      (n) => nestedAnyOf(Math.log2(n)),
    ),
    compiled("levels of items", "nestedItems", "schema-too-large", "levels", [100_000, 400_000], nestedItems),
    compiled("an enum's values", "bigEnum", "schema-too-large", "values", [250_000, 1_000_000], bigEnum),
    compiled(
      "definitions, each a reference to the next",
      "referenceChain",
      "expansion-limit",
      "definitions",
      [2_500, 10_000],
      referenceChain,
    ),
    compiled(
      "definitions nested through arrays",
      "arrayChain",
      "expansion-limit",
      "definitions",
      [2_500, 10_000],
      arrayChain,
    ),
  ];
}

export function runHostile(timing: ComparisonOptions): HostileResult {
  const rows: HostileRow[] = [];
  for (const shape of shapes()) {
    progress(`  hostile: ${shape.label}`);
    const [small, large] = shape.sizes.map((n) => shape.prepare(n)) as [Prepared, Prepared];
    // Timed only once both sizes are refused with the shape's code: a fast wrong answer measures nothing.
    for (const p of [small, large]) {
      const code = p.run();
      if (code !== shape.code) throw new Error(`${shape.label}: ${code} at ${p.size} ${shape.unit}, not ${shape.code}`);
    }
    const c = compareInterleaved(
      [
        { name: "small", fn: small.run },
        { name: "large", fn: large.run },
      ],
      timing,
    );
    const ratio = c.ratio.large!;
    rows.push({
      group: shape.group,
      label: shape.label,
      key: shape.key,
      code: shape.code,
      unit: shape.unit,
      sizes: [small.size, large.size],
      ms: [c.perCall.small!, c.perCall.large!],
      ratio,
      slope: Math.log(ratio.median) / Math.log(large.size / small.size),
    });
  }
  return { rows, goal: HOSTILE_GOAL };
}

const sizeText = (n: number, unit: string): string =>
  unit === "bytes"
    ? `${n / MB >= 1 ? `${(n / MB).toFixed(1)} MB` : `${(n / 1000).toFixed(0)} KB`}`
    : `${n.toLocaleString("en-US")} ${unit}`;

export function renderHostile(r: HostileResult): string {
  const over = r.rows.filter((row) => row.slope > r.goal).map((row) => row.label);
  return [
    "## Hostile inputs: a refusal's time against the size refused",
    "",
    "Each shape at two sizes, both refused with the code shown, timed interleaved in the same rounds; ratio = the large size's time over the small one's, median (p25–p75) over rounds; slope = log(ratio) / log(size ratio): 1 is linear, 2 quadratic, about 0 a refusal at a fixed budget. Times are medians per call, for orientation.",
    "",
    table(
      ["what", "code", "small", "large", "small time", "large time", "ratio", "slope"],
      r.rows.map((row) => [
        `${row.group}: ${row.label}`,
        row.code,
        sizeText(row.sizes[0], row.unit),
        sizeText(row.sizes[1], row.unit),
        fmtMs(row.ms[0].median),
        fmtMs(row.ms[1].median),
        fmtSummary(row.ratio),
        row.slope.toFixed(2),
      ]),
    ),
    "",
    `Goal: slope ≤ ${r.goal} for every shape: ${over.length === 0 ? "met" : `not met (${over.join(", ")})`}.`,
  ].join("\n");
}
