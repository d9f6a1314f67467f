/**
 * Schemas from a validation library as compile input: anything implementing
 * Standard JSON Schema (`~standard.jsonSchema`: Zod 4.2+, ArkType, any other
 * implementation) gives the JSON Schema of its INPUT side, what the
 * model must write. The library itself is kept, so that decoding can run its
 * own `~standard.validate` afterwards (refinements, transforms, defaults).
 *
 * No library is imported here: detection is structural, so the codec works
 * without Zod or any other of them installed.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/author.js";
import { isPlainObject, type JsonObject } from "../json.js";

/** A schema the compiler can read: its JSON Schema, and the library schema when there is one. */
export interface SchemaInput {
  readonly json: unknown;
  /** The library's Standard Schema, when the input came from one and it can validate. */
  readonly library?: StandardSchemaV1;
}

/** A library schema compile accepts: Standard JSON Schema, usually Standard Schema too. */
export type LibrarySchema = StandardJSONSchemaV1 | (StandardJSONSchemaV1 & StandardSchemaV1);

/** strictwire's own codecs carry `~standard` too, with the wire schema as input: compiling that is a mistake. */
const OWN_VENDOR = "strictwire";

/** True for a value with a `~standard` member, the mark of every Standard Schema library. */
export function isLibrarySchema(schema: unknown): schema is { readonly "~standard": Record<string, unknown> } {
  if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) return false;
  const props = (schema as { "~standard"?: unknown })["~standard"];
  return typeof props === "object" && props !== null;
}

/** The JSON Schema to compile for `schema`, reading the library's input side when it is a library schema. */
export function readSchemaInput(schema: unknown): Result<SchemaInput> {
  if (!isLibrarySchema(schema)) return ok({ json: schema });
  const props = schema["~standard"];
  const vendor = typeof props.vendor === "string" ? props.vendor : "unknown";
  if (vendor === OWN_VENDOR) {
    return fail(
      "invalid-schema",
      "",
      "this is already a strictwire codec: compile its source schema (codec.bundle.source), not the codec",
    );
  }
  const library = typeof props.validate === "function" ? (schema as unknown as StandardSchemaV1) : undefined;
  const converter = props.jsonSchema;
  if (!isPlainObject(converter) || typeof converter.input !== "function") {
    const zod =
      "_zod" in schema
        ? ' (Zod 4 releases before Standard JSON Schema support: pass z.toJSONSchema(schema, { io: "input" }) and wrap the codec with withStandardSchema, or upgrade Zod)'
        : "";
    return fail(
      "unsupported-schema",
      "",
      `the ${vendor} schema does not implement Standard JSON Schema (~standard.jsonSchema)${zod}`,
    );
  }
  let json: unknown;
  try {
    json = (converter.input as StandardJSONSchemaV1.Converter["input"])({ target: "draft-2020-12" });
  } catch (error) {
    // A library throws for a schema it cannot express in JSON Schema (a Zod transform's input, a Date, ...).
    const reason = error instanceof Error ? error.message : String(error);
    return fail("unsupported-schema", "", `the ${vendor} schema has no JSON Schema for its input: ${reason}`);
  }
  if (!isPlainObject(json) && typeof json !== "boolean") {
    return fail("invalid-schema", "", `the ${vendor} schema's JSON Schema is not an object`);
  }
  return ok(library === undefined ? { json: stripDraft(json) } : { json: stripDraft(json), library });
}

/** `$schema` names the draft the library wrote; the compiler reads 2020-12 and draft-07 alike, so it adds nothing. */
function stripDraft(json: unknown): unknown {
  if (!isPlainObject(json) || !("$schema" in json)) return json;
  const { $schema: _draft, ...rest } = json as JsonObject;
  return rest;
}
