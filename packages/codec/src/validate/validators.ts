/**
 * The two validators a codec runs: the wire schema (is this what the model was
 * asked to write?) and the original contract (is the decoded value acceptable?).
 * The hot path uses first-error validators; when one fails, an all-errors twin
 * is compiled once and run for the diagnosis.
 *
 * ajv's first-error code nests each check after the first inside the one
 * before (so that it stops at the first failure): an object of some thousand
 * members is a block that many deep, which overflows the stack when ajv writes
 * it or when V8 compiles it, at its first call. All-errors code runs the same
 * checks in sequence; such a schema gets it as its fast validator (`flat`).
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { type Issue, isResourceExhaustion, isStackOverflow } from "../errors.js";
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
  fast: FastValidator;
  diagnose?: ValidateFunction;
  /** The fast validator is all-errors code already: nothing flatter to fall back to. */
  flat?: boolean;
}

export class Validators {
  private readonly branches = new Map<string, ValidateFunction | null>();
  /** Branches whose first-error code overflowed the stack, and the all-errors instance that compiles them. */
  private readonly flatBranches = new Set<string>();
  private flatSourceAjv: AnyAjv | undefined;
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
      const source = fastPair(sourceAjv, prepared.schema, () => createAjv(prepared.family, true));
      stage = "wire";
      const wirePair = fastPair(wireAjv, wire, () => createAjv("2020", true));
      // An instance whose compile overflowed may hold the schema half added: branch validators get a new one.
      const kept = source.flat === true || (wirePair.flat === true && wireAjv === sourceAjv) ? undefined : sourceAjv;
      return { ok: true, value: new Validators(prepared, wire, kept, source, wirePair) };
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
    // Standalone modules hold all-errors code (standalone.ts): already flat.
    return new Validators(prepared, wire, undefined, { fast: source, flat: true }, { fast: wireValidate, flat: true });
  }

  /** Issues, or undefined when the original contract accepts the value. */
  checkSource(value: unknown): Issue[] | undefined {
    return this.check("source", this.sourcePair, this.prepared.schema, value);
  }

  checkWire(value: unknown): Issue[] | undefined {
    return this.check("wire", this.wirePair, this.wireSchema, value);
  }

  private check(which: "source" | "wire", pair: Pair, schema: unknown, value: unknown): Issue[] | undefined {
    if (this.passes(which, pair, schema, value)) return undefined;
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

  /** The fast validator's verdict; first-error code that overflows the stack is replaced by the all-errors twin, once. */
  private passes(which: "source" | "wire", pair: Pair, schema: unknown, value: unknown): boolean {
    try {
      return pair.fast(value);
    } catch (error) {
      if (pair.flat === true || !isStackOverflow(error)) throw error;
      pair.flat = true;
      try {
        pair.diagnose ??= this.diagnostic(which).compile(schema as object | boolean);
      } catch (refused) {
        // Where no code may be generated now, the first-error code stays, and the overflow is decode's to report.
        if (!isCodeGenerationRefused(refused)) throw refused;
        delete this.diagnosticAjv[which];
        throw error;
      }
      pair.fast = pair.diagnose;
      return pair.fast(value);
    }
  }

  /** Whether the value satisfies every source location named (space-separated pointers); undefined if unknown. */
  satisfies(pointers: string, value: unknown): boolean | undefined {
    let all = true;
    for (const pointer of pointers.split(" ")) {
      const v = this.branchValidator(pointer);
      if (v === undefined) return undefined;
      if (!this.branchPasses(pointer, v, value)) all = false;
    }
    return all;
  }

  /** A branch's verdict; first-error code that overflows the stack is replaced by all-errors code, once. */
  private branchPasses(pointer: string, v: ValidateFunction, value: unknown): boolean {
    try {
      return v(value);
    } catch (error) {
      if (this.flatBranches.has(pointer) || !isStackOverflow(error)) throw error;
      this.flatBranches.add(pointer);
      this.branches.delete(pointer);
      const flat = this.branchValidator(pointer);
      if (flat === undefined) throw error;
      return flat(value);
    }
  }

  private branchValidator(pointer: string): ValidateFunction | undefined {
    let v = this.branches.get(pointer);
    if (v === undefined) {
      try {
        v = this.branchAjv(this.flatBranches.has(pointer)).compile({ $ref: `${this.prepared.id}#${pointer}` });
      } catch (error) {
        if (isCodeGenerationRefused(error)) {
          // Unknown for now, not for ever: where code may be generated later, it is tried again.
          this.sourceAjv = undefined;
          this.flatSourceAjv = undefined;
          return undefined;
        }
        if (!this.flatBranches.has(pointer) && isStackOverflow(error)) {
          this.flatBranches.add(pointer);
          return this.branchValidator(pointer);
        }
        v = null;
      }
      this.branches.set(pointer, v);
    }
    return v ?? undefined;
  }

  /** The instance that compiles branch validators (pointers already URI-encoded by the builder: no raw space). */
  private branchAjv(flat: boolean): AnyAjv {
    if (flat) {
      this.flatSourceAjv ??= sourceAjvFor(this.prepared, true);
      return this.flatSourceAjv;
    }
    this.sourceAjv ??= sourceAjvFor(this.prepared, false);
    return this.sourceAjv;
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

/** First-error code, or all-errors code where ajv overflows the stack writing the first (see the top). */
function fastPair(ajv: AnyAjv, schema: unknown, flat: () => AnyAjv): Pair {
  try {
    return { fast: ajv.compile(schema as object | boolean) };
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    const diagnose = flat().compile(schema as object | boolean);
    return { fast: diagnose, diagnose, flat: true };
  }
}

/** Branch validators point into the source schema: an instance that knows it, without compiling it whole. */
function sourceAjvFor(prepared: PreparedSource, allErrors: boolean): AnyAjv {
  const ajv = createAjv(prepared.family, allErrors);
  if (typeof prepared.schema !== "boolean") ajv.addSchema(prepared.schema);
  return ajv;
}
