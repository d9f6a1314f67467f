/**
 * The format pieces a generated module imports (src/validate/format-checks.ts)
 * held to ajv-formats' `fullFormats`, the reference compile uses: the same
 * kind of entry (a function, a regular expression, an object with `validate`,
 * its `type` and its `compare`), and the same verdict, read as ajv reads an
 * entry, on every value of: the JSON-Schema-Test-Suite's format cases
 * (draft 2020-12, optional/format), every string and number in the fixtures'
 * values, and values fast-check makes (random strings, dates and times built
 * from parts in and out of range, leap years, leap seconds with offsets,
 * mutations of valid values). Where ajv calls `compare` (formatMinimum and
 * its kin, which the codec accepts), the same comparison on pairs of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as pieces from "../../src/validate/format-checks.js";
import { FORMAT_PIECES } from "../../src/validate/format-checks.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

type Entry = unknown;
const reference = fullFormats as unknown as Record<string, Entry>;
// The module's exports as a table (a test reads them by name; the package never does).
const exports: Record<string, Entry> = { ...pieces };
const pieceOf = (name: string): Entry => exports[FORMAT_PIECES[name as keyof typeof FORMAT_PIECES]];

/** An entry as ajv's format keyword reads it: the type it applies to, and its test. */
function reading(entry: Entry): { type: string; test: (value: unknown) => boolean } {
  if (typeof entry === "object" && entry !== null && !(entry instanceof RegExp)) {
    const def = entry as { type?: string; validate: Entry };
    return { type: def.type ?? "string", test: reading(def.validate).test };
  }
  if (typeof entry === "function") return { type: "string", test: (v) => Boolean(entry(v)) };
  if (entry instanceof RegExp) return { type: "string", test: (v) => entry.test(v as string) };
  throw new Error(`no reading for ${String(entry)}`);
}

/** The entries compared: every one of ajv-formats' that is no `true` (which ajv writes no check for). */
const NAMES = Object.keys(reference).filter((name) => reference[name] !== true);

/** Each verdict of the piece that differs from ajv-formats' on these values, as [format, value, expected, got]. */
function disagreements(values: readonly unknown[], names: readonly string[] = NAMES): unknown[][] {
  const out: unknown[][] = [];
  for (const name of names) {
    const expected = reading(reference[name]);
    const got = reading(pieceOf(name));
    for (const value of values) {
      if (typeof value !== expected.type) continue;
      const a = expected.test(value);
      const b = got.test(value);
      if (a !== b) out.push([name, value, a, b]);
    }
  }
  return out;
}

const COMPARED = NAMES.filter((name) => typeof (reference[name] as { compare?: unknown }).compare === "function");

/** Each comparison of the piece that differs from ajv-formats' on pairs of these values. */
function compareDisagreements(values: readonly string[], names: readonly string[] = COMPARED): unknown[][] {
  const out: unknown[][] = [];
  for (const name of names) {
    const expected = (reference[name] as { compare: (a: string, b: string) => number | undefined }).compare;
    const got = (pieceOf(name) as pieces.ComparedFormat).compare;
    for (const a of values) {
      for (const b of values) {
        const x = expected(a, b);
        const y = got(a, b);
        if (!Object.is(x, y)) out.push([name, a, b, x, y]);
      }
    }
  }
  return out;
}

/** The suite's format cases: every instance of every group under optional/format. */
function suiteValues(): unknown[] {
  const dir = join(ROOT, "corpora", "json-schema-test-suite", "tests", "draft2020-12", "optional", "format");
  const out: unknown[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const groups = JSON.parse(readFileSync(join(dir, file), "utf8")) as { tests: { data: unknown }[] }[];
    for (const group of groups) for (const t of group.tests) out.push(t.data);
  }
  return out;
}

/** Every string and number in the fixtures' valid and invalid values (their format values among them). */
function fixtureValues(): unknown[] {
  const dir = join(ROOT, "fixtures", "schemas");
  const out: unknown[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string" || typeof v === "number") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(walk);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const f = JSON.parse(readFileSync(join(dir, file), "utf8")) as { valid?: unknown[]; invalid?: unknown[] };
    walk(f.valid ?? []);
    walk(f.invalid ?? []);
  }
  return out;
}

const two = (n: number) => String(n).padStart(2, "0");
const four = (n: number) => String(n).padStart(4, "0");

/** A date from parts, months and days past their range included, Feb 29 of leap and common years weighted in. */
const dateArb = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 33 }))
    .map(([y, m, d]) => `${four(y)}-${two(m)}-${two(d)}`),
  fc
    .tuple(fc.constantFrom(1900, 2000, 2023, 2024, 2100, 2400, 1996, 1), fc.constantFrom(28, 29, 30))
    .map(([y, d]) => `${four(y)}-02-${two(d)}`),
);

/** A time from parts: hours, minutes and seconds past their range, fractions, zones of every shape and case. */
const zoneArb = fc.oneof(
  fc.constantFrom("", "Z", "z", "+00:00", "-00:00", "+23:59", "-23:59", "+24:00", "+05:60", "+0530", "+05"),
  fc
    .tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }))
    .map(([s, h, m]) => `${s}${two(h)}:${two(m)}`),
);
const timeArb = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.integer({ min: 0, max: 61 }),
      fc.constantFrom("", ".0", ".5", ".123456789", "."),
      zoneArb,
    )
    .map(([h, m, s, f, z]) => `${two(h)}:${two(m)}:${two(s)}${f}${z}`),
  // Leap seconds: 23:59:60 in UTC, and the same instant written in other zones.
  fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 29, 30, 58, 59), zoneArb)
    .map(([h, m, z]) => `${two(h)}:${two(m)}:60${z}`),
  fc.constantFrom("23:59:60Z", "23:59:60+00:00", "15:59:60-08:00", "00:29:60+00:30", "23:59:60", "23:59:61Z"),
);
const dateTimeArb = fc
  .tuple(dateArb, fc.constantFrom("T", "t", " ", "\t", "TT", "", "\n"), timeArb)
  .map(([d, s, t]) => `${d}${s}${t}`);

/** A valid value changed at one place: a digit, a separator, a case, a character dropped or doubled. */
function mutated(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom(..."0123456789:-+.TtZz /=%#?@[]eE\\", "", "99", "\u00e9"),
      fc.constantFrom("set", "drop", "double"),
    )
    .map(([v, at, c, how]) => {
      if (v.length === 0) return c;
      const i = at % v.length;
      if (how === "drop") return v.slice(0, i) + v.slice(i + 1);
      if (how === "double") return v.slice(0, i + 1) + v.slice(i);
      return v.slice(0, i) + c + v.slice(i + 1);
    });
}

const SAMPLES = [
  "2024-02-29T23:59:60Z",
  "1990-12-31T15:59:60-08:00",
  "2025-03-10T15:00:00.123+05:30",
  "2025-03-10",
  "23:59:60Z",
  "12:00:00",
  "https://example.com/a/b?c=d#e",
  "urn:isbn:0451450523",
  "aGVsbG8=",
  "QUJD",
  "^a(b|c)+\\d$",
  "user@example.com",
  "123e4567-e89b-12d3-a456-426614174000",
  "P1Y2M3DT4H5M6S",
];

/** Strings of the suite's and the fixtures' that some entry holds valid: seeds for mutation. */
function validSeeds(values: readonly unknown[]): string[] {
  const out = new Set(SAMPLES);
  for (const v of values) {
    if (typeof v !== "string") continue;
    if (NAMES.some((n) => reading(reference[n]).type === "string" && reading(reference[n]).test(v))) out.add(v);
  }
  return [...out];
}

const stringArb = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(..."0123456789:-+.TtZz "), maxLength: 30 }),
  dateArb,
  timeArb,
  dateTimeArb,
  mutated(dateTimeArb),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  mutated(fc.webUrl()),
  fc.base64String(),
  mutated(fc.base64String({ minLength: 4 })),
  fc.string({ unit: fc.constantFrom(..."abc()[]{}*+?\\^$|.Z"), maxLength: 12 }),
  fc.emailAddress(),
  fc.uuid(),
);

const numberArb = fc.oneof(
  fc.integer({ min: -(2 ** 31) - 2, max: -(2 ** 31) + 2 }),
  fc.integer({ min: 2 ** 31 - 3, max: 2 ** 31 + 2 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53, 2 ** 53 + 2, -(2 ** 63), 0.5, -0, Number.MAX_VALUE, Number.MIN_VALUE),
);

describe("each format piece is ajv-formats' entry of the same name", () => {
  test("a piece for every entry that is no `true`, of the same kind: function, regular expression (the same), object", () => {
    expect(Object.keys(FORMAT_PIECES).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      const want = reference[name];
      const got = pieceOf(name);
      if (want instanceof RegExp) {
        expect(got, name).toBeInstanceOf(RegExp);
        expect([(got as RegExp).source, (got as RegExp).flags], name).toEqual([want.source, want.flags]);
      } else if (typeof want === "function") {
        expect(typeof got, name).toBe("function");
      } else {
        const w = want as { type?: string; validate: unknown; compare?: unknown };
        const g = got as { type?: string; validate: unknown; compare?: unknown };
        expect([g.type, typeof g.validate, typeof g.compare], name).toEqual([
          w.type,
          typeof w.validate,
          typeof w.compare,
        ]);
      }
    }
  });

  test("the JSON-Schema-Test-Suite's format cases: the same verdict under every format", () => {
    const values = suiteValues();
    expect(values.length).toBeGreaterThan(500);
    expect(disagreements(values)).toEqual([]);
    const strings = values.filter((v): v is string => typeof v === "string");
    expect(compareDisagreements(strings)).toEqual([]);
  });

  test("every string and number in the fixtures' values: the same verdict under every format", () => {
    const values = fixtureValues();
    expect(values.length).toBeGreaterThan(100);
    expect(disagreements(values)).toEqual([]);
  });

  test("generated strings and numbers: the same verdict under every format", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(stringArb, numberArb), { minLength: 1, maxLength: 20 }), (values) => {
        expect(disagreements(values)).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  test("mutations of the suite's, the fixtures' and known valid values: the same verdict under every format", () => {
    const seeds = validSeeds([...suiteValues(), ...fixtureValues()]);
    fc.assert(
      fc.property(fc.array(mutated(fc.constantFrom(...seeds)), { minLength: 1, maxLength: 20 }), (values) => {
        expect(disagreements(values)).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  test("dates and times made in and out of range: the same verdict and the same comparison", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(dateArb, timeArb, dateTimeArb, mutated(dateTimeArb)), { minLength: 2, maxLength: 8 }),
        (values) => {
          expect(disagreements(values, COMPARED)).toEqual([]);
          expect(compareDisagreements(values)).toEqual([]);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test("the generated values reach both verdicts of each function-based format", () => {
    // Else a piece could agree only by never being asked a value it should take (or refuse).
    const values = [...suiteValues(), ...fixtureValues(), ...fc.sample(fc.oneof(stringArb, numberArb), 3000)];
    for (const name of NAMES.filter((n) => !(reference[n] instanceof RegExp))) {
      const { type, test } = reading(reference[name]);
      const verdicts = new Set(values.filter((v) => typeof v === type).map(test));
      // float and double take every number: no value is refused.
      expect([...verdicts].sort(), name).toEqual(name === "float" || name === "double" ? [true] : [false, true]);
    }
  });
});
