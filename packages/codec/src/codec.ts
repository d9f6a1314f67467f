/**
 * The run-time half: a loaded bundle with its validators compiled once.
 * decode: model output -> original value (bounded parse, wire check, rebuild, contract check).
 * encode: original value -> wire value (contract check, transform, wire check, fits the decoder).
 *
 * The codec core: it imports no layer above it (streaming, dispatch, the
 * provider APIs, the adapters, build time; test/house/layers.test.ts). The
 * layers reach it through its public members and, for the stream decoder,
 * decodeParsed below; the Codec applications hold (public-codec.ts) adds the
 * layers' conveniences on top.
 */

import type { Bundle } from "./bundle/bundle.js";
import { ABSENT, type BranchHolds, type EncodeContext, FAIL, type WalkContext } from "./constructs/context.js";
import { decodeNode, encodeNode, WALK } from "./constructs/registry.js";
import { namesBranches } from "./constructs/union.js";
import type { CompiledDecoder, DecodeState } from "./decode/compiled.js";
import { type CodecError, type Issue, isStackOverflow, ok, pointerOf, type Result } from "./errors.js";
import { bestMatch, explain, issueTree, mapTree, stepsIn } from "./feedback/diagnose.js";
import { contractViolationText, fail, publicIssue, rebuildFeedback, wireViolationText } from "./feedback/format.js";
import { parseError } from "./feedback/parse.js";
import { valueError } from "./feedback/value.js";
import type { UnionNode } from "./ir/nodes.js";
import { dedupeIssues, describeIssues } from "./issues.js";
import { jsonTypeOf } from "./json.js";
import { namesLoneSurrogate, namesOnce, parsedForWalk } from "./parse/native.js";
import { exceedsUtf8Bytes, MAX_DEPTH_LIMIT, type ParseLimits, type ParseRefusal, parseText } from "./parse/parser.js";
import { measureValue, readValue } from "./value-limits.js";
import { NO_ARGUMENTS, unwrap, wrap } from "./wire/envelope.js";
import { originalSteps, wholeOriginalSteps } from "./wire/paths.js";

/** A wire value: always a JSON object (the arguments object, or `{"arguments": …}`). */
export type WireValue = Record<string, unknown>;

/** What a decode may be given: the raw arguments text, its bytes, or an already parsed value. */
export type RawArguments = string | Uint8Array | unknown;

export interface DecodeOptions {
  /** Override the bundle's parse limits for this call. */
  readonly limits?: Partial<ParseLimits>;
  /**
   * Also run the wire schema's validator before rebuilding. It accepts exactly what the
   * default accepts (the plan walk checks the wire's structure); it costs time and helps
   * when debugging a bundle.
   */
  readonly checkWireSchema?: boolean;
  /**
   * Decode with the interpreted plan walk only, the reference the generated
   * decoder is held to; slower, the same results.
   */
  readonly interpreted?: boolean;
}

/**
 * The two checks a codec runs, and the branch test encode picks union
 * branches with: ajv's validators compiled at load (a JSON bundle), or the
 * code a generated module carries.
 */
export interface Checks {
  /** Issues, or undefined when the original contract accepts the value. */
  checkSource(value: unknown): Issue[] | undefined;
  /** Issues, or undefined when the wire schema accepts the value. */
  checkWire(value: unknown): Issue[] | undefined;
  /** Whether the value satisfies the source schema at this location (a URI-fragment pointer); undefined if unknown. */
  satisfies(pointer: string, value: unknown): boolean | undefined;
}

/**
 * decode(text) for a text a layer above read whole itself: the stream
 * decoder's incremental parser (`root`, the value parseText gives for the
 * text, read under the same limits; `members`, the member names it read; it
 * refuses repeated names). The generated pass runs on `root` without parsing
 * again; anything but its plain success is decided by `codec.decode(text())`
 * (the text made only then), so every result is decode's own. A codec whose
 * decode is not the core's (withStandardSchema's, a subclass's) gets its own
 * decode(text()) at once. The core's one run-time entry for the layers above
 * beyond its public members; not exported by the package.
 */
export function decodeParsed<T>(
  codec: CodecCore<T>,
  text: () => string,
  root: unknown,
  members: number,
  options: DecodeOptions = {},
): Result<T> {
  return codec.decode === CodecCore.prototype.decode
    ? parsedPass(codec, text, root, members, options)
    : codec.decode(text(), options);
}

/** The core's pass behind decodeParsed: set in CodecCore's body, where its private members may be read. */
let parsedPass: <T>(
  codec: CodecCore<T>,
  text: () => string,
  root: unknown,
  members: number,
  options: DecodeOptions,
) => Result<T>;

/**
 * The codec core: decode, encode, validate. Applications hold a Codec (this,
 * with the Standard Schema props and the stream decoder's method on it);
 * what takes any codec takes a CodecCore.
 */
export class CodecCore<T = unknown> {
  static {
    parsedPass = (codec, text, root, members, options) => codec.decodeParsedWithin(text, root, members, options);
  }

  readonly name: string;
  readonly limits: ParseLimits;
  /** The generated decoder, made on first use; null where code cannot be generated (the interpreted walk then runs). */
  private generated: CompiledDecoder | null | undefined;
  /** The plan has a union whose wire names its branch: a decode checks the wire schema too (see namesBranches). */
  private readonly branchesNamed: boolean;
  /** With branchesNamed: whether a branch's source takes a value read through it (the walk asks at each such union). */
  private readonly holds: BranchHolds | undefined;
  /** Set with the generated decoder: the plan names something with a lone surrogate, so texts are checked whole. */
  private planNamesLoneSurrogate = true;

  constructor(
    readonly bundle: Bundle,
    private readonly validators: Checks,
    /**
     * Makes the generated decoder, called once on first decode: one built in
     * memory, or one a module carries as code. Absent: the interpreted walk alone.
     */
    private readonly makeDecoder?: () => CompiledDecoder,
  ) {
    this.name = bundle.name;
    this.limits = bundle.limits;
    this.branchesNamed = namesBranches(bundle.plan, WALK);
    this.holds = this.branchesNamed ? (pointers, value) => this.satisfiesAll(pointers, value) !== false : undefined;
  }

  /** The strict schema to give the model. */
  get wire(): Bundle["wire"] {
    return this.bundle.wire;
  }

  decode(raw: RawArguments, options: DecodeOptions = {}): Result<T> {
    const limits = options.limits ? { ...this.limits, ...options.limits } : this.limits;
    if (limits.maxDepth > MAX_DEPTH_LIMIT) {
      return fail("invalid-options", "", `limit maxDepth must be at most ${MAX_DEPTH_LIMIT}`);
    }
    return guarded(() => this.decodeWithin(raw, limits, options));
  }

  private decodeWithin(raw: RawArguments, limits: ParseLimits, options: DecodeOptions): Result<T> {
    if (typeof raw === "string" && options.checkWireSchema !== true && options.interpreted !== true) {
      const value = this.decodeGenerated(raw, limits);
      if (value !== FAIL) return ok(value as T);
    }
    let wire: unknown;
    // ArrayBuffer.isView first: it reads no member (instanceof asks a Proxy for its prototype, which may throw).
    if (typeof raw === "string" || (ArrayBuffer.isView(raw) && raw instanceof Uint8Array)) {
      const parsed = parseText(raw, limits);
      if (!parsed.ok) return { ok: false, error: this.inOriginalTerms(parsed.error) };
      wire = parsed.value;
    } else {
      // Already parsed by someone else: held to the same limits, and read once into a copy that is walked.
      const read = readValue(raw, limits);
      if (!read.ok) return { ok: false, error: valueError(read.error) };
      wire = read.value.value;
    }

    if (options.checkWireSchema === true) {
      const wireIssues = this.validators.checkWire(wire);
      if (wireIssues !== undefined) return this.wireViolation(wire, wireIssues);
    }

    // The walk enforces the wire's structure (closed objects, tags, entries, JSON types) as it
    // rebuilds; the final validation enforces every value constraint. Together they accept what
    // the wire schema and the contract accept, without running the wire validator on success,
    // except where the wire names a union's branch (namesBranches): the contract alone cannot
    // hold a value to the branch named.
    const ctx: WalkContext = {
      defs: this.bundle.plan.defs,
      walk: WALK,
      path: [],
      error: undefined,
      limits,
      holds: this.holds,
    };
    const args = unwrap(this.bundle.plan, wire);
    const value = args === NO_ARGUMENTS ? FAIL : decodeNode(this.bundle.plan.root, args, ctx);
    if (value === FAIL || value === ABSENT) {
      // Diagnose with the wire schema: its verdict comes first, as if it had run up front.
      const wireIssues = this.validators.checkWire(wire);
      if (wireIssues !== undefined) return this.wireViolation(wire, wireIssues);
      return { ok: false, error: this.withFeedback(ctx.error) };
    }

    const issues = this.validators.checkSource(value);
    if (issues !== undefined) {
      // A value the wire schema itself forbids is the model not following the wire: say that first.
      const wireIssues = this.validators.checkWire(wire);
      if (wireIssues !== undefined) return this.wireViolation(wire, wireIssues);
      return this.contractViolation(issues, value);
    }
    // With checkWireSchema the wire was checked up front already.
    if (this.branchesNamed && options.checkWireSchema !== true) {
      const wireIssues = this.validators.checkWire(wire);
      if (wireIssues !== undefined) return this.wireViolation(wire, wireIssues);
    }
    return ok(value as T);
  }

  /** decodeParsed (above), for a codec whose decode is the core's. */
  private decodeParsedWithin(text: () => string, root: unknown, members: number, options: DecodeOptions): Result<T> {
    const limits = options.limits ? { ...this.limits, ...options.limits } : this.limits;
    if (options.checkWireSchema !== true && options.interpreted !== true && limits.maxDepth <= MAX_DEPTH_LIMIT) {
      const value = guarded(() => ok(this.decodeGeneratedParsed(root, members, limits)));
      if (value.ok && value.value !== FAIL) return value as Result<T>;
    }
    return this.decode(text(), options);
  }

  private decodeGeneratedParsed(root: unknown, members: number, limits: ParseLimits): unknown {
    const decoder = this.decoder();
    if (decoder === null) return FAIL;
    const state: DecodeState = {
      maxNodes: limits.maxNodes,
      maxDepth: limits.maxDepth,
      checkStrings: true,
      nodes: 1,
      members: 0,
      limits,
      holds: this.holds,
    };
    const value = decoder(root, state);
    // The parser refused repeated names, so as many read as written means none undeclared.
    if (value === FAIL || state.members !== members) return FAIL;
    if (this.validators.checkSource(value) !== undefined) return FAIL;
    return this.branchesNamed && this.validators.checkWire(root) !== undefined ? FAIL : value;
  }

  /**
   * The generated decoder's one pass: parse limits, wire structure and the
   * rebuilt value together, then the contract. FAIL for anything it does not
   * accept outright; the interpreted path then decides, so every refusal is
   * worded by one path only.
   */
  private decodeGenerated(text: string, limits: ParseLimits): unknown {
    const decoder = this.decoder();
    if (decoder === null || exceedsUtf8Bytes(text, limits.maxBytes)) return FAIL;
    const parsed = parsedForWalk(text, this.planNamesLoneSurrogate);
    if (parsed === undefined) return FAIL;
    // Written out member by member: one object shape for every call keeps the generated code monomorphic.
    const state: DecodeState = {
      maxNodes: limits.maxNodes,
      maxDepth: limits.maxDepth,
      checkStrings: parsed.checkStrings,
      nodes: 1,
      members: 0,
      limits,
      holds: this.holds,
    };
    const value = decoder(parsed.root, state);
    if (value === FAIL || !namesOnce(text, parsed.root as object, state.members)) return FAIL;
    if (this.validators.checkSource(value) !== undefined) return FAIL;
    return this.branchesNamed && this.validators.checkWire(parsed.root) !== undefined ? FAIL : value;
  }

  private decoder(): CompiledDecoder | null {
    if (this.generated === undefined) {
      try {
        this.generated = this.makeDecoder?.() ?? null;
        this.planNamesLoneSurrogate = namesLoneSurrogate(this.bundle.plan);
      } catch {
        // No code generation here (a policy that forbids it): the interpreted walk decodes alone.
        this.generated = null;
      }
    }
    return this.generated;
  }

  /** The wire value for `value`: what a model would write (the arguments object itself, or `{"arguments": …}` for a non-object root). */
  encode(value: T): Result<WireValue> {
    return guarded(() => this.encodeUnguarded(value));
  }

  private encodeUnguarded(given: T): Result<WireValue> {
    // Read once into a copy (a getter or a Proxy that throws is refused, and cannot answer twice differently).
    const read = readValue(given, { ...this.limits, maxBytes: Number.POSITIVE_INFINITY });
    if (!read.ok) {
      const breach = valueError(read.error);
      const passThrough = breach.code === "unsafe-number" || breach.code === "invalid-json";
      return fail(
        passThrough ? breach.code : "exceeds-decoder-limits",
        breach.path,
        `${breach.message}; the decoder could not read its wire form`,
      );
    }
    const value = read.value.value as T;
    const issues = this.validators.checkSource(value);
    if (issues !== undefined) {
      // The same issues, diagnosis and tree as a refused call's contract violation.
      const { shown, tree } = this.contractIssues(issues, value);
      return fail("invalid-value", shown[0]?.path ?? "", `the value breaks the schema: ${describeIssues(shown)}`, {
        issues: shown,
        tree,
      });
    }
    const ctx: EncodeContext = {
      defs: this.bundle.plan.defs,
      walk: WALK,
      path: [],
      error: undefined,
      limits: this.limits,
      branchOrder: (node, v) => this.branchOrder(node, v),
      openObjects: this.bundle.options.openObjects,
    };
    const encoded = encodeNode(this.bundle.plan.root, value, ctx);
    if (encoded === FAIL)
      return { ok: false, error: ctx.error ?? fail("invalid-value", "", "the value has no wire form").error };
    const wire = wrap(this.bundle.plan, encoded);
    const wireIssues = this.validators.checkWire(wire);
    if (wireIssues !== undefined) {
      return fail(
        "invalid-value",
        "",
        `the value has no wire form the wire schema accepts: ${describeIssues(wireIssues)}`,
        {
          issues: wireIssues,
        },
      );
    }
    const fits = measureValue(wire, this.limits, JSON.stringify(wire));
    if (!fits.ok) {
      return fail(
        "exceeds-decoder-limits",
        "",
        `the wire form is beyond the decoder's limits: ${valueError(fits.error).message}`,
      );
    }
    return ok(wire);
  }

  /** Check a value against the original contract only. */
  validate(value: unknown): Result<T> {
    return guarded(() => {
      try {
        const issues = this.validators.checkSource(value);
        return issues === undefined ? ok(value as T) : this.contractViolation(issues, value);
      } catch (error) {
        // Validating threw. A value that is no JSON value within the limits (a member that throws when read, a
        // Proxy that claims a length it has not) is refused as decode refuses it; a plain one means a bug.
        const read = readValue(value, { ...this.limits, maxBytes: Number.POSITIVE_INFINITY });
        if (!read.ok) return { ok: false, error: valueError(read.error) };
        throw error;
      }
    });
  }

  /** Candidate branches for a value, most likely first. */
  private branchOrder(node: UnionNode, value: unknown): readonly number[] {
    const all = node.branches.map((_, i) => i);
    if (node.branchTypes !== undefined) {
      const t = jsonTypeOf(value);
      return all.filter((i) => t !== undefined && node.branchTypes![i]!.includes(t));
    }
    const valid: number[] = [];
    const unknown: number[] = [];
    for (const i of all) {
      const verdict = this.satisfiesAll(node.branchSources[i]!, value);
      if (verdict === true) valid.push(i);
      else if (verdict === undefined) unknown.push(i);
    }
    return [...valid, ...unknown];
  }

  /** Whether the value satisfies every source location of a branch; undefined if one is unknown. */
  private satisfiesAll(pointers: readonly string[], value: unknown): boolean | undefined {
    let all = true;
    for (const pointer of pointers) {
      const verdict = this.validators.satisfies(pointer, value);
      if (verdict === undefined) return undefined;
      if (!verdict) all = false;
    }
    return all;
  }

  /** The model broke the wire schema: the best match first, every issue in the original value's terms. */
  private wireViolation(wire: unknown, issues: Issue[]): Result<T> {
    const { plan, wire: schema } = this.bundle;
    const inOriginal = (i: Issue): Issue => {
      const at = originalSteps(plan, wire, i.path);
      return publicIssue({ ...i, path: pointerOf(at), at });
    };
    const tree = mapTree(issueTree(issues, wire, schema), inOriginal);
    const diagnosed = bestMatch(issues, wire, schema).map((i) => explain(i, wire, schema));
    const shown = dedupeIssues(diagnosed.map(inOriginal));
    const { message, feedback } = wireViolationText(this.name, shown);
    return fail("wire-violation", shown[0]?.path ?? "", message, { issues: shown, tree, feedback });
  }

  private contractViolation(issues: Issue[], value?: unknown): Result<T> {
    const { shown, tree } = this.contractIssues(issues, value);
    const { message, feedback } = contractViolationText(this.name, shown);
    return fail("contract-violation", shown[0]?.path ?? "", message, { issues: shown, tree, feedback });
  }

  /** The contract's issues about a value: diagnosed (best match first) and as a tree, with path steps. */
  private contractIssues(issues: Issue[], value?: unknown): { shown: Issue[]; tree: readonly Issue[] } {
    const { source } = this.bundle;
    const located = (i: Issue): Issue => publicIssue(value === undefined ? i : { ...i, at: stepsIn(value, i.path) });
    const tree = mapTree(value === undefined ? issues : issueTree(issues, value, source), located);
    const diagnosed =
      value === undefined ? issues : bestMatch(issues, value, source).map((i) => explain(i, value, source));
    return { shown: dedupeIssues(diagnosed.map(located)), tree };
  }

  /**
   * The parser's refusal worded, its position in the original value's terms
   * where the text position maps to a member (/body/value is /body): `path`
   * and feedback both. A position with no original counterpart (a doubled
   * "arguments") keeps the text's own.
   */
  private inOriginalTerms(refusal: ParseRefusal): CodecError {
    const { plan } = this.bundle;
    const { path: textPath } = refusal;
    if (textPath === "" || (plan.envelope === "arguments" && !textPath.startsWith("/arguments"))) {
      return parseError(refusal);
    }
    const at = wholeOriginalSteps(plan, undefined, textPath);
    if (at === undefined) {
      // The walk stopped short (inside an entry, inside any-JSON): `path` keeps the text's precision,
      // the feedback names the member the position is in.
      const partial = originalSteps(plan, undefined, textPath);
      return parseError(refusal, textPath, partial.length === 0 ? textPath : pointerOf(partial));
    }
    const path = pointerOf(at);
    return at.length === 0 || path === textPath ? parseError(refusal) : parseError(refusal, path, path, at);
  }

  /** A failure met while rebuilding through the plan: one issue, worded with its own hint. */
  private withFeedback(error: CodecError | undefined): CodecError {
    const e = error ?? fail("wire-violation", "", "the arguments could not be rebuilt").error;
    // Made anew rather than spread: a spread would word the default feedback only to replace it.
    const { code, path, message, issues, tree, offset } = e;
    return fail(code, path, message, { feedback: rebuildFeedback(this.name, e), issues, tree, offset }).error;
  }
}

/**
 * The last line of defence: every walk and validator is bounded by the limits
 * (and MAX_DEPTH_LIMIT keeps those within the stack), so an overflow here
 * means a schema or plan that slipped past the checks. It becomes a refusal,
 * never an exception in the middle of a tool call.
 */
function guarded<R>(run: () => Result<R>): Result<R> {
  try {
    return run();
  } catch (error) {
    if (isStackOverflow(error)) {
      return fail("too-deep", "", "the value could not be checked: its checks nest deeper than the stack allows");
    }
    throw error;
  }
}
