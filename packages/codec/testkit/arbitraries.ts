/**
 * fast-check arbitraries for schemas in the supported subset and for values
 * valid under them. Member names include the awkward ones on purpose.
 */
import fc from "fast-check";

export type Schema = Record<string, unknown>;

const NAMES = [
  "a",
  "b",
  "name",
  "constructor",
  "prototype",
  "valueOf",
  "toString",
  "hasOwnProperty",
  "x y",
  "",
  "ü",
  "a/b",
  "~",
];

/** Names that were behaviour to some code (ajv's equality called valueOf, compared constructor; "" was never "missing"). */
const TRAP_NAMES = ["valueOf", "toString", "constructor", "hasOwnProperty", "__proto__", ""];

/** An object with one own member named `name` ("__proto__" included, as JSON.parse makes it). */
const member = (name: string, value: unknown): Record<string, unknown> =>
  JSON.parse(`{${JSON.stringify(name)}:${JSON.stringify(value)}}`) as Record<string, unknown>;

/** No value satisfies it: its parts have no type in common. */
const NEVER: Schema = { allOf: [{ type: "string" }, { type: "integer" }] };

const scalar: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant({ type: "string" }),
  fc.constant({ type: "string", minLength: 1 }),
  fc.constant({ type: "integer" }),
  fc.constant({ type: "integer", minimum: 0, maximum: 100 }),
  fc.constant({ type: "number" }),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "null" }),
  fc.constant({ type: ["string", "null"] }),
  fc.constant({ enum: ["red", "green", 3, null] }),
  fc.constant({ const: "fixed" }),
  fc.constant({}),
  // Object values whose member names are traps for a deep equality.
  fc.constantFrom(...TRAP_NAMES).map((n) => ({ const: member(n, [1]) })),
  fc.constantFrom(...TRAP_NAMES).map((n) => ({ enum: [member(n, 1), member(n, 2), member(n, "1"), 3] })),
);

export const schemaArb: fc.Arbitrary<Schema> = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc
      .tuple(
        fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 4 }),
        fc.array(tie("schema"), { minLength: 4, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.constantFrom<"closed" | "map" | "open">("closed", "map", "open"),
        tie("schema"),
      )
      .map(([names, subs, req, rest, extra]) => {
        const properties = Object.fromEntries(names.map((n, i) => [n, subs[i]!]));
        const s: Schema = { type: "object", properties, required: names.filter((_, i) => req[i]) };
        if (rest === "closed") s.additionalProperties = false;
        if (rest === "map") s.additionalProperties = extra;
        return s;
      }),
    tie("schema").map((value) => ({ type: "object", additionalProperties: value })),
    tie("schema").map((items) => ({ type: "array", items, maxItems: 4 })),
    tie("schema").map((items) => ({ type: "array", items, maxItems: 4, uniqueItems: true })),
    fc.constant({ type: "array", uniqueItems: true, maxItems: 4 }),
    // Containers whose contents no value satisfies: only their empty form is valid, and it must travel.
    fc.constant({ type: "array", items: NEVER }),
    fc.constant({ type: "object", additionalProperties: NEVER }),
    // Presence rules naming the trap names, "" included, where only the validator enforces them.
    fc
      .tuple(fc.constantFrom(...NAMES), fc.constantFrom(...TRAP_NAMES.filter((n) => n !== "__proto__")), tie("schema"))
      .map(([trigger, needed, sub]) => ({
        type: "object",
        properties: { [trigger]: sub, [needed]: sub },
        dependentRequired: { [trigger]: [needed] },
      })),
    fc.tuple(fc.constantFrom(...TRAP_NAMES.filter((n) => n !== "__proto__")), tie("schema")).map(([needed, sub]) => ({
      type: "object",
      properties: { [needed]: sub, other: sub },
      anyOf: [{ required: [needed] }, { required: ["other"] }],
    })),
    fc
      .tuple(
        fc.array(tie("schema"), { minLength: 1, maxLength: 3 }),
        fc.nat({ max: 3 }),
        fc.constantFrom<"open" | "closed" | "typed">("open", "closed", "typed"),
        tie("schema"),
      )
      .map(([prefixItems, minItems, rest, items]) => ({
        type: "array",
        prefixItems,
        minItems: Math.min(minItems, prefixItems.length),
        ...(rest === "closed" ? { items: false } : rest === "typed" ? { items } : {}),
      })),
    fc.array(tie("schema"), { minLength: 2, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    tie("schema").map((inner) => ({ anyOf: [inner, { type: "null" }] })),
  ),
})).schema;

/** Values for a generated schema. Not always valid (anyOf branches, relaxed keywords): filter with the codec. */
export function valueArb(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.anyOf) && schema.type === undefined)
    return fc.oneof(...(schema.anyOf as Schema[]).map((s) => valueArb(s, depth + 1)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => valueArb({ type: t }, depth + 1)));
  switch (type) {
    case "string":
      return fc.string({ minLength: typeof schema.minLength === "number" ? schema.minLength : 0, maxLength: 6 });
    case "integer":
      return fc.integer({ min: (schema.minimum as number) ?? -1e6, max: (schema.maximum as number) ?? 1e6 });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      if (Array.isArray(schema.prefixItems)) return tupleArb(schema, depth);
      const items = schema.items === undefined ? anyJson : valueArb(schema.items as Schema, depth + 1);
      return schema.uniqueItems === true
        ? fc.uniqueArray(items, { maxLength: 3, selector: canonicalText })
        : fc.array(items, { maxLength: 3 });
    }
    case "object":
      return objectArb(schema, depth);
    default:
      return anyJson;
  }
}

/** A tuple: its first positions (at least minItems of them), then, unless closed, a few more elements. */
function tupleArb(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const positions = schema.prefixItems as Schema[];
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const rest = schema.items === false ? undefined : ((schema.items ?? {}) as Schema);
  return fc
    .tuple(
      fc.integer({ min, max: positions.length }),
      fc.tuple(...positions.map((p) => valueArb(p, depth + 1))),
      rest === undefined ? fc.constant([]) : fc.array(valueArb(rest, depth + 1), { maxLength: 2 }),
    )
    .map(([length, values, more]) => (length === positions.length ? [...values, ...more] : values.slice(0, length)));
}

function objectArb(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  const declared = fc.tuple(
    ...names.map((n) =>
      required.has(n)
        ? valueArb(properties[n]!, depth + 1).map((v) => [n, v] as const)
        : fc.option(
            valueArb(properties[n]!, depth + 1).map((v) => [n, v] as const),
            { nil: undefined },
          ),
    ),
  );
  const extraSchema = schema.additionalProperties;
  const extra =
    extraSchema !== undefined && extraSchema !== false
      ? fc.array(
          fc.tuple(fc.constantFrom("k1", "__proto__", ...TRAP_NAMES), valueArb(extraSchema as Schema, depth + 1)),
          {
            maxLength: 3,
          },
        )
      : fc.constant([] as [string, unknown][]);
  return fc.tuple(declared, extra).map(([members, extras]) => {
    const out: Record<string, unknown> = {};
    for (const m of members)
      if (m !== undefined)
        Object.defineProperty(out, m[0], { value: m[1], enumerable: true, writable: true, configurable: true });
    for (const [k, v] of extras) {
      if (!Object.hasOwn(out, k) && !Object.hasOwn(properties, k)) {
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    return out;
  });
}

/** Equal JSON values, and only they, have the same text. */
function canonicalText(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

/** JSON values, -0 excluded (JSON has no negative zero to carry). */
export const anyJson: fc.Arbitrary<unknown> = fc
  .jsonValue({ maxDepth: 3 })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

/** How many cases a property runs: short by default, STRICTWIRE_FUZZ_RUNS raises it. */
export function runs(base: number): number {
  const env = Number(process.env.STRICTWIRE_FUZZ_RUNS);
  return Number.isFinite(env) && env > 0 ? env : base;
}
