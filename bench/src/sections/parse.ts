/**
 * The bounded parser against JSON.parse (and secure-json-parse as a second
 * reference) on documents of four shapes at about 1 KB, 64 KB and 1 MB.
 * Supersedes the one-off bench/src/parse-quick.mjs measurement.
 */
import { parseJson } from "@strictwire/codec";
import sjson from "secure-json-parse";
import { random } from "../corpora.js";
import { table } from "../format.js";
import { type ComparisonOptions, compareInterleaved, fmtMs, fmtSummary, geomean, type Summary } from "../stats.js";

const WORDS = ["alpha", "beta", "gamma", "delta", "Zoë", "naïve", "東京", "emoji 😀", 'quote "x"', "tab\tnew\nline"];

type Shape = "object" | "array" | "string" | "number";
export const SHAPES: readonly Shape[] = ["object", "array", "string", "number"];

const ITEMS: Readonly<Record<Shape, (rnd: () => number, i: number) => unknown>> = {
  object: (rnd, i) => ({
    id: i,
    name: WORDS[Math.floor(rnd() * WORDS.length)],
    active: rnd() < 0.5,
    score: Math.round(rnd() * 10000) / 100,
    tags: ["a", "b", "c"].slice(0, 1 + Math.floor(rnd() * 3)),
    owner: { id: Math.floor(rnd() * 1e6), email: `user${i}@example.com`, role: null },
    created_at: "2024-05-01T12:00:00Z",
  }),
  array: (rnd) => [Math.floor(rnd() * 100), [rnd() < 0.5, null, Math.floor(rnd() * 10)], [[1, 2], [3]], []],
  string: (rnd) => {
    const w = WORDS[Math.floor(rnd() * WORDS.length)];
    return `${w} ${"lorem ipsum dolor sit amet ".repeat(1 + Math.floor(rnd() * 8))}${w}`;
  },
  number: (rnd) => [rnd() * 1e6, -Math.floor(rnd() * 1e9), rnd(), 1e-7 * rnd(), Math.floor(rnd() * 1e15)],
};

/** A document of about `bytes` characters: a list of items (wrapped in an object for the object shape). */
export function makeDocument(shape: Shape, bytes: number): string {
  const rnd = random(42);
  const items: unknown[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const item = ITEMS[shape](rnd, i);
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return JSON.stringify(shape === "object" ? { items, count: items.length } : items);
}

/** Limits raised so that every document is within them (the defaults stop at 1 MB and 20,000 values). */
const LIMITS = { maxBytes: 8_000_000, maxNodes: 10_000_000, maxDepth: 64 };

export interface ParseRow {
  readonly shape: Shape;
  readonly label: string;
  readonly bytes: number;
  readonly jsonParse: Summary;
  readonly parseJson: Summary;
  readonly secure: Summary;
  /** parseJson / JSON.parse, per round. */
  readonly ratio: Summary;
  readonly secureRatio: Summary;
}

export interface ParseResult {
  readonly rows: readonly ParseRow[];
  /** Geometric mean over shapes of the median ratio, per size label. */
  readonly bySize: Readonly<Record<string, number>>;
}

export const PARSE_SIZES: readonly [string, number][] = [
  ["1 KB", 1_000],
  ["64 KB", 64_000],
  ["1 MB", 1_000_000],
];

export function runParse(sizes: readonly [string, number][], timing: ComparisonOptions): ParseResult {
  const rows: ParseRow[] = [];
  for (const [label, bytes] of sizes) {
    for (const shape of SHAPES) {
      const text = makeDocument(shape, bytes);
      const check = parseJson(text, LIMITS);
      if (!check.ok) throw new Error(`parseJson refused the ${shape} document: ${check.error.message}`);
      const cmp = compareInterleaved(
        [
          { name: "JSON.parse", fn: () => JSON.parse(text) },
          { name: "parseJson", fn: () => parseJson(text, LIMITS) },
          { name: "secure-json-parse", fn: () => sjson.parse(text) },
        ],
        timing,
      );
      rows.push({
        shape,
        label,
        bytes: Buffer.byteLength(text),
        jsonParse: cmp.perCall["JSON.parse"]!,
        parseJson: cmp.perCall.parseJson!,
        secure: cmp.perCall["secure-json-parse"]!,
        ratio: cmp.ratio.parseJson!,
        secureRatio: cmp.ratio["secure-json-parse"]!,
      });
    }
  }
  const bySize: Record<string, number> = {};
  for (const [label] of sizes)
    bySize[label] = geomean(rows.filter((r) => r.label === label).map((r) => r.ratio.median));
  return { rows, bySize };
}

export function renderParse(r: ParseResult): string {
  return [
    "## Bounded parse (parseJson) vs JSON.parse and secure-json-parse",
    "",
    "Ratios are against JSON.parse in the same round; median over rounds (p25–p75). parseJson runs with limits raised to fit the documents.",
    "",
    table(
      ["size", "shape", "bytes", "JSON.parse", "parseJson", "secure-json-parse", "parseJson ratio", "secure ratio"],
      r.rows.map((x) => [
        x.label,
        x.shape,
        x.bytes,
        fmtMs(x.jsonParse.median),
        fmtMs(x.parseJson.median),
        fmtMs(x.secure.median),
        fmtSummary(x.ratio),
        fmtSummary(x.secureRatio),
      ]),
    ),
    "",
    `parseJson / JSON.parse, geometric mean over shapes: ${Object.entries(r.bySize)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(", ")}.`,
  ].join("\n");
}
