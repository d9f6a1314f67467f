/**
 * The two validators a codec runs: the wire schema (is this what the model was
 * asked to write?) and the original contract (is the decoded value acceptable?).
 * The hot path uses first-error validators; when one fails, an all-errors twin
 * is compiled once and run for the diagnosis.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { type Issue, isResourceExhaustion } from "../errors.js";
import type { JsonObject } from "../json.js";
import type { PreparedSource } from "../schema/prepare.js";
import { type AnyAjv, createAjv, toIssues } from "./ajv.js";
import { isCodeGenerationRefused } from "./codegen.js";

export type Compiled<T> = { ok: true; value: T } | { ok: false; reason: string; pattern: boolean; tooLarge: boolean };

/** A first-error validator: ajv's, or one compiled ahead of time (ajv standalone code). */
export interface FastValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

interface Pair {
  readonly fast: FastValidator;
  diagnose?: ValidateFunction;
}

export class Validators {
  private readonly branches = new Map<string, ValidateFunction | null>();
  private diagnosticAjv: { source?: AnyAjv; wire?: AnyAjv } = {};

  private constructor(
    private readonly prepared: PreparedSource,
    private readonly wireSchema: JsonObject,
    private sourceAjv: AnyAjv | undefined,
    private readonly sourcePair: Pair,
    private readonly wirePair: Pair,
  ) {}

  static create(prepared: PreparedSource, wire: JsonObject): Compiled<Validators> {
    const sourceAjv = createAjv(prepared.family, false);
    const wireAjv = prepared.family === "2020" ? sourceAjv : createAjv("2020", false);
    let stage = "source";
    try {
      const source = sourceAjv.compile(prepared.schema);
      stage = "wire";
      const wireValidate = wireAjv.compile(wire);
      return { ok: true, value: new Validators(prepared, wire, sourceAjv, { fast: source }, { fast: wireValidate }) };
    } catch (error) {
      // The runtime's refusal, not the schema's fault: the caller reports it as such.
      if (isCodeGenerationRefused(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        reason: `${stage} schema does not compile: ${message}`,
        pattern: /RE2JS|regex|pattern/i.test(message),
        // ajv generates code recursively, as one string: a schema big enough overflows the stack, or
        // the longest string, while compiling. Another RangeError is no measure of the schema's size.
        tooLarge: isResourceExhaustion(error),
      };
    }
  }

  /** From validators compiled ahead of time: ajv compiles nothing until a diagnosis or a branch choice needs it. */
  static precompiled(
    prepared: PreparedSource,
    wire: JsonObject,
    source: FastValidator,
    wireValidate: FastValidator,
  ): Validators {
    return new Validators(prepared, wire, undefined, { fast: source }, { fast: wireValidate });
  }

  /** Issues, or undefined when the original contract accepts the value. */
  checkSource(value: unknown): Issue[] | undefined {
    return this.check("source", this.sourcePair, this.prepared.schema, value);
  }

  checkWire(value: unknown): Issue[] | undefined {
    return this.check("wire", this.wirePair, this.wireSchema, value);
  }

  private check(which: "source" | "wire", pair: Pair, schema: unknown, value: unknown): Issue[] | undefined {
    if (pair.fast(value)) return undefined;
    if (pair.diagnose === undefined) {
      try {
        pair.diagnose = this.diagnostic(which).compile(schema as object | boolean);
      } catch (error) {
        if (!isCodeGenerationRefused(error)) throw error;
        // Compiled at start-up, decoding in a request (workerd): the first error alone describes the rejection.
        delete this.diagnosticAjv[which];
        return toIssues(pair.fast.errors);
      }
    }
    pair.diagnose(value);
    return toIssues(pair.diagnose.errors ?? pair.fast.errors);
  }

  /** Whether the value satisfies every source location named (space-separated pointers); undefined if unknown. */
  satisfies(pointers: string, value: unknown): boolean | undefined {
    let all = true;
    for (const pointer of pointers.split(" ")) {
      const v = this.branchValidator(pointer);
      if (v === undefined) return undefined;
      if (!v(value)) all = false;
    }
    return all;
  }

  private branchValidator(pointer: string): ValidateFunction | undefined {
    let v = this.branches.get(pointer);
    if (v === undefined) {
      try {
        this.sourceAjv ??= sourceAjvFor(this.prepared);
        // Already URI-encoded by the builder, so that no pointer holds a raw space.
        v = this.sourceAjv.compile({ $ref: `${this.prepared.id}#${pointer}` });
      } catch (error) {
        if (isCodeGenerationRefused(error)) {
          // Unknown for now, not for ever: where code may be generated later, it is tried again.
          this.sourceAjv = undefined;
          return undefined;
        }
        v = null;
      }
      this.branches.set(pointer, v);
    }
    return v ?? undefined;
  }

  private diagnostic(which: "source" | "wire"): AnyAjv {
    const family = which === "source" ? this.prepared.family : "2020";
    let ajv = this.diagnosticAjv[which];
    if (ajv === undefined) {
      ajv = createAjv(family, true);
      this.diagnosticAjv[which] = ajv;
    }
    return ajv;
  }
}

/** Branch validators point into the source schema: an instance that knows it, without compiling it whole. */
function sourceAjvFor(prepared: PreparedSource): AnyAjv {
  const ajv = createAjv(prepared.family, false);
  if (typeof prepared.schema !== "boolean") ajv.addSchema(prepared.schema);
  return ajv;
}
