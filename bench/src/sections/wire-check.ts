/**
 * The wire check a precompiled module runs, interpreted against generated:
 * the wire schema read at load into closures (validate/wire-check.ts, what a
 * module of this version builds) and ajv's all-errors wire validator as code
 * (what earlier modules carry, and a module whose wire is outside the
 * interpreter's subset), in one run, as ratios. Two uses per fixture: the
 * module's encode of its valid values (the check's verdict only), and its
 * decode of texts the wire refuses (the mistakes corpus and the values' own
 * source-form texts: the check's every error, then the feedback on them).
 * The two codecs differ only in the wire validator handed to codecFromModule.
 * The internals (precompiledTool, the ajv instance) are the codec's source's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@strictwire/codec";
import { codecFromModule } from "../../../packages/codec/src/runtime.js";
import { precompiledTool } from "../../../packages/codec/src/standalone.js";
import { createAjv } from "../../../packages/codec/src/validate/ajv.js";
import type { FastValidator } from "../../../packages/codec/src/validate/validators.js";
import { REPO_ROOT } from "../corpora.js";
import { table } from "../format.js";
import { type ComparisonOptions, compareInterleaved, fmtSummary, geomean, type Summary } from "../stats.js";

export interface WireCheckRow {
  readonly fixture: string;
  /** Texts decoded (each refused by the wire) and values encoded, per timed call. */
  readonly refused: number;
  readonly encoded: number;
  /** Interpreted over generated: one sample per round. */
  readonly decode: Summary;
  readonly encode: Summary;
}

export interface WireCheckTiming {
  readonly rows: readonly WireCheckRow[];
  readonly decodeGeomean: number;
  readonly encodeGeomean: number;
}

interface Fixture {
  readonly schema: unknown;
  readonly options?: object;
  readonly valid: readonly unknown[];
}

export function runWireCheck(timing: ComparisonOptions, only?: readonly string[]): WireCheckTiming {
  const dir = join(REPO_ROOT, "fixtures", "schemas");
  const names =
    only ??
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => f.slice(0, -5));
  const rows: WireCheckRow[] = [];
  for (const name of names) {
    const f = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Fixture;
    const bundle = compile(f.schema, f.options ?? {});
    if (!bundle.ok) continue;
    const tool = precompiledTool(bundle.value);
    if (!tool.ok) continue;
    const validators = tool.value.validators;
    const generated = createAjv("2020", true).compile(bundle.value.wire) as FastValidator;
    const interpreted = codecFromModule(bundle.value, validators);
    const asCode = codecFromModule(bundle.value, { ...validators, wire: generated, diagnoseWire: generated });
    if (!interpreted.ok || !asCode.ok) continue;
    const a = interpreted.value;
    const g = asCode.value;
    const texts = [...mistakeTexts(name), ...f.valid.map((v) => JSON.stringify(v))].filter((t) => {
      const r = a.decode(t);
      return !r.ok && r.error.code === "wire-violation";
    });
    const values = f.valid.filter((v) => a.encode(v).ok);
    if (texts.length === 0 || values.length === 0) continue;
    const decode = compareInterleaved(
      [
        { name: "generated", fn: () => texts.map((t) => g.decode(t)) },
        { name: "interpreted", fn: () => texts.map((t) => a.decode(t)) },
      ],
      timing,
    );
    const encode = compareInterleaved(
      [
        { name: "generated", fn: () => values.map((v) => g.encode(v)) },
        { name: "interpreted", fn: () => values.map((v) => a.encode(v)) },
      ],
      timing,
    );
    rows.push({
      fixture: name,
      refused: texts.length,
      encoded: values.length,
      decode: decode.ratio.interpreted!,
      encode: encode.ratio.interpreted!,
    });
  }
  return {
    rows,
    decodeGeomean: geomean(rows.map((r) => r.decode.median)),
    encodeGeomean: geomean(rows.map((r) => r.encode.median)),
  };
}

function mistakeTexts(name: string): string[] {
  try {
    const cases = JSON.parse(readFileSync(join(REPO_ROOT, "fixtures", "mistakes", `${name}.json`), "utf8")) as {
      text: string;
    }[];
    return cases.map((c) => c.text);
  } catch {
    return [];
  }
}

export function renderWireCheck(r: WireCheckTiming): string {
  return [
    "## A module's wire check: interpreted vs generated (ajv's code)",
    "",
    "The same module's Codec with the wire validator it builds at load (the wire schema interpreted, no code generated) over one with ajv's all-errors wire validator as code. Decode: texts the wire refuses (its errors, then the feedback); encode: valid values (the verdict only).",
    "",
    table(
      [
        "fixture",
        "refused texts",
        "decode, interpreted / generated (p25–p75)",
        "values",
        "encode, interpreted / generated",
      ],
      r.rows.map((x) => [x.fixture, x.refused, fmtSummary(x.decode), x.encoded, fmtSummary(x.encode)]),
    ),
    "",
    `Geomean over ${r.rows.length} fixtures: decode of a refused text ${r.decodeGeomean.toFixed(2)}, encode ${r.encodeGeomean.toFixed(2)} (interpreted over generated).`,
  ].join("\n");
}
