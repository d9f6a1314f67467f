/**
 * The wire schema's validator without generated code: the wire schema read
 * once, at load, into one closure per schema node, which runs where code
 * generation is forbidden and spares a module its largest piece (ajv's wire
 * validator). It answers as the all-errors validator ajv compiles for the
 * wire (validate/ajv.ts's options: 2020-12, own properties, ajv-formats'
 * formats, RE2 patterns, lengths in code points, numbers not held finite),
 * error for error: the same instancePath, schemaPath, keyword, params,
 * message and order, since a refusal's issues and feedback are read off them
 * (test/validate/wire-check.test.ts holds it to ajv over the corpora).
 *
 * Only the wire's subset: what the wire builders emit (WIRE_KEYWORDS). A
 * wire schema outside it (`wireInterpretable` says) keeps ajv's generated
 * validator. A check runs twice on a refusal only: first without a list (the
 * first breach ends it), then with one, to collect every error in ajv's order.
 */
import type { ErrorObject } from "ajv";
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";
import { cjsDefault } from "../cjs.js";
import { firstLoop, firstOverBudget } from "../graph.js";
import type { FastValidator } from "./validators.js";

const ucs2length: (text: string) => number = /* @__PURE__ */ cjsDefault(ucs2lengthModule);

/** The run-time pieces a wire check calls: the module hands only those its wire needs, so a bundler leaves the rest out. */
export interface WirePieces {
  /** ajv-formats' checks (`fullFormats`): needed when the wire has a `format` (an unknown format passes, as in ajv). */
  readonly formats?: Readonly<Record<string, unknown>>;
  /** The linear-time engine ajv's patterns use (`re2`): needed when the wire has a `pattern`. */
  readonly re2?: (pattern: string, flags?: string) => { test(input: string): boolean };
  /** JSON equality (`equal`): needed when a `const` or an `enum` value is an object or an array (a scalar is compared with ===). */
  readonly equal?: (a: unknown, b: unknown) => boolean;
}

/**
 * The keywords a wire schema may hold to be interpreted, each with whether
 * its value is well formed. Annotations (description, title) are no rules in
 * ajv; the rest are the rules the wire builders and the targets' kept
 * keywords (targets/*.ts `keeps`) emit. Not here, so left to ajv: boolean
 * subschemas, uniqueItems, patternProperties, propertyNames, oneOf, allOf,
 * not, if, the object counts, a schema as additionalProperties.
 */
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const isNumber = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
const isSchemas = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every(isNode);
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);
const isContainer = (v: unknown): boolean => typeof v === "object" && v !== null;
const TYPES = ["null", "boolean", "string", "number", "integer", "array", "object"];
const isTypeName = (v: unknown): boolean => typeof v === "string" && TYPES.includes(v);
export const WIRE_KEYWORDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  description: () => true,
  title: () => true,
  $defs: (v) => isNode(v) && Object.values(v).every(isNode),
  $ref: (v) => typeof v === "string" && v.startsWith("#"),
  type: (v) =>
    isTypeName(v) || (Array.isArray(v) && v.length > 0 && v.every(isTypeName) && new Set(v).size === v.length),
  const: () => true,
  enum: (v) => Array.isArray(v) && v.length > 0,
  anyOf: isSchemas,
  maximum: isNumber,
  minimum: isNumber,
  exclusiveMaximum: isNumber,
  exclusiveMinimum: isNumber,
  multipleOf: (v) => isNumber(v) && (v as number) > 0,
  maxLength: isCount,
  minLength: isCount,
  pattern: (v) => typeof v === "string",
  format: (v) => typeof v === "string",
  maxItems: isCount,
  minItems: isCount,
  prefixItems: isSchemas,
  items: isNode,
  required: (v) => Array.isArray(v) && v.every((n) => typeof n === "string"),
  additionalProperties: (v) => typeof v === "boolean",
  properties: (v) => isNode(v) && Object.values(v).every(isNode),
};

type Node = Record<string, unknown>;

/**
 * Whether the interpreter takes this wire schema: every node holds only
 * WIRE_KEYWORDS, well formed, every `$ref` points at a node of the schema
 * (a JSON Pointer fragment), no `$ref` or `anyOf` leads back to its
 * node without a container between nor starts more than IN_PLACE_PATHS
 * chains of them; with the pieces it needs: `formats` for a
 * `format`, `re2` for a `pattern`, `equal` for an object or array in a
 * `const` or an `enum`.
 */
export function wireInterpretable(
  wire: unknown,
): { readonly formats: boolean; readonly re2: boolean; readonly equal: boolean } | undefined {
  if (!isNode(wire)) return undefined;
  const needs = { formats: false, re2: false, equal: false };
  const work: unknown[] = [wire];
  const nodes: Node[] = [];
  while (work.length > 0) {
    const node = work.pop();
    if (!isNode(node)) return undefined;
    nodes.push(node);
    for (const [key, value] of Object.entries(node)) {
      const wellFormed = WIRE_KEYWORDS[key];
      if (wellFormed === undefined || !wellFormed(value)) return undefined;
      if (key === "$ref" && !isNode(resolve(wire, value as string))) return undefined;
      if (key === "format") needs.formats = true;
      if (key === "pattern") needs.re2 = true;
      if ((key === "const" ? [value] : key === "enum" ? (value as unknown[]) : []).some(isContainer))
        needs.equal = true;
      if (key === "$defs" || key === "properties") work.push(...Object.values(value as Node));
      else if (key === "anyOf" || key === "prefixItems") work.push(...(value as unknown[]));
      else if (key === "items") work.push(value);
    }
  }
  // A check of such a loop calls itself on the same value until the stack runs out, and one of
  // chains that multiply runs each of them on a value that fails: a module edited by hand.
  const next = (node: Node) => inPlaceNext(wire, node);
  if (firstLoop(nodes, next) !== undefined || firstOverBudget(nodes, next, IN_PLACE_PATHS) !== undefined)
    return undefined;
  return needs;
}

/**
 * How many chains of `$ref` and `anyOf` (applying to one value) may start at one node of a wire
 * schema. A wire compile writes has tens; a hand-edited one may have 2^30, each checked on every value
 * that fails them all (schema/loops.ts inPlaceFanOut holds a JSON bundle's wire, and a source at
 * compile and at load, to the same: no schema of JSONSchemaBench's 11,000 has a thousand).
 */
export const IN_PLACE_PATHS = 10_000;

/** The nodes that apply to the same value as `node` (its `$ref` and `anyOf`, the subset's only in-place keywords). */
function inPlaceNext(root: Node, node: Node): Node[] {
  const out = Array.isArray(node.anyOf) ? [...(node.anyOf as Node[])] : [];
  if (typeof node.$ref === "string") out.push(resolve(root, node.$ref) as Node);
  return out;
}

/**
 * The wire schema's validator: ajv's verdict, and on a refusal ajv's
 * all-errors `errors`. The schema must be one `wireInterpretable` takes, with
 * the pieces it names.
 */
export function wireValidator(wire: unknown, pieces: WirePieces = {}): FastValidator {
  const needs = wireInterpretable(wire);
  if (
    needs === undefined ||
    (needs.formats && pieces.formats === undefined) ||
    (needs.re2 && pieces.re2 === undefined) ||
    (needs.equal && pieces.equal === undefined)
  )
    return unreadable();
  const check = new Interpreter(wire as Node, pieces).node(wire as Node, "#");
  const validate: FastValidator = (value) => {
    if (check(value, "", undefined)) {
      validate.errors = null;
      return true;
    }
    const errors: ErrorObject[] = [];
    check(value, "", errors);
    validate.errors = errors;
    return false;
  };
  return validate;
}

/**
 * Validators given a wire schema the interpreter does not take, or without a
 * piece it needs: a module changed after it was written (its writer checks
 * both). Building one never throws, since the module calls this as it is
 * imported; codecFromModule refuses them with a typed error instead.
 */
const UNREADABLE = new WeakSet<FastValidator>();

/** Whether `validate` came from a wire schema the wire check could not read (see UNREADABLE). */
export function unreadableWire(validate: FastValidator): boolean {
  return UNREADABLE.has(validate);
}

function unreadable(): FastValidator {
  // Refuses every value, should it be called other than through codecFromModule.
  const validate: FastValidator = () => {
    validate.errors = [{ instancePath: "", schemaPath: "#", keyword: "wire", params: {}, message: WIRE_UNREADABLE }];
    return false;
  };
  UNREADABLE.add(validate);
  return validate;
}

/** Why a module whose wire schema the wire check cannot read is refused. */
export const WIRE_UNREADABLE =
  "the wire schema is not one the wire check reads, or a piece it needs was not handed: the module was changed after it was written";

/**
 * A node's check: whether `data` (at `path`, a JSON Pointer) satisfies it.
 * Without `errors` it stops at the first breach; with them it goes on and
 * pushes each breach as ajv words it. The path is only read for an error:
 * without a list it is not built (undefined below the root).
 */
type Check = (data: unknown, path: string | undefined, errors: ErrorObject[] | undefined) => boolean;

type Data = Record<string, unknown> & unknown[];

const hasOwn = (o: object, key: string): boolean => Object.hasOwn(o, key);

/** ajv's data type tests (numbers not held finite: the codec's ajv has `strict: false`). */
const IS: Readonly<Record<string, (d: unknown) => boolean>> = {
  null: (d) => d === null,
  boolean: (d) => typeof d === "boolean",
  string: (d) => typeof d === "string",
  number: (d) => typeof d === "number",
  integer: (d) => typeof d === "number" && !(d % 1) && !Number.isNaN(d),
  array: Array.isArray,
  object: isNode,
};

/** ajv's rule groups, in its order of evaluation: the untyped rules, then those of each data type. */
const GROUPS: readonly (readonly [string | undefined, readonly string[]])[] = [
  [undefined, ["$ref", "const", "enum", "anyOf"]],
  ["number", ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf", "format"]],
  ["string", ["maxLength", "minLength", "pattern", "format"]],
  ["array", ["maxItems", "minItems", "prefixItems", "items"]],
  ["object", ["required", "additionalProperties", "properties"]],
];

/** Keywords that are rules in ajv (annotations and $defs are not): a node with none always passes. */
const RULES = new Set(["type", ...GROUPS.flatMap(([, keywords]) => keywords)]);
const alwaysValid = (node: Node): boolean => !Object.keys(node).some((k) => RULES.has(k));

const LIMITS: Readonly<Record<string, readonly [string, (d: number, limit: number) => boolean]>> = {
  maximum: ["<=", (d, n) => d > n],
  minimum: [">=", (d, n) => d < n],
  exclusiveMaximum: ["<", (d, n) => d >= n],
  exclusiveMinimum: [">", (d, n) => d <= n],
};

// As ajv's escapeJsonPointer and escapeFragment.
const escapePointer = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1");
const escapeFragment = (s: string): string => encodeURIComponent(escapePointer(s));

/** The node a `$ref` fragment points at, as ajv resolves it; undefined if none. */
function resolve(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const fragment = ref.slice(1);
  if (fragment === "" || fragment === "/") return root;
  let node = root;
  for (const part of fragment.slice(1).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (!isContainer(node)) return undefined;
    if (!hasOwn(node as object, token)) return undefined;
    node = (node as Node)[token];
  }
  return node;
}

/** Whether a schema holds a `$ref` anywhere (ajv's hasRef: such a definition is compiled apart, not inlined). */
function hasRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasRef);
  if (!isNode(value)) return false;
  for (const key in value) {
    if (key === "$ref" || hasRef(value[key])) return true;
  }
  return false;
}

/** Every check in turn; without an error list the first breach ends it. */
function all(checks: readonly Check[]): Check {
  // One check (the common node: a type's group, or a lone $ref) needs no loop around it.
  if (checks.length === 1) return checks[0]!;
  return (d, p, e) => {
    let ok = true;
    for (const check of checks) {
      if (!check(d, p, e)) {
        if (e === undefined) return false;
        ok = false;
      }
    }
    return ok;
  };
}

/** A rule on the value itself, with its one error. */
function rule(at: string, keyword: string, params: object, message: string, breaks: (d: never) => boolean): Check {
  const schemaPath = `${at}/${keyword}`;
  return (d, p, e) => {
    if (!breaks(d as never)) return true;
    e?.push({ instancePath: p!, schemaPath, keyword, params: { ...params }, message });
    return false;
  };
}

/** A rule on an object's members (required, additionalProperties): an error for each member that breaks it, named in `param`. */
function eachMember(
  at: string,
  keyword: string,
  param: string,
  message: (name: string) => string,
  names: (o: Node) => readonly string[],
  breaks: (o: Node, name: string) => boolean,
): Check {
  const schemaPath = `${at}/${keyword}`;
  return (d, p, e) => {
    const o = d as Node;
    let ok = true;
    for (const name of names(o)) {
      if (!breaks(o, name)) continue;
      if (e === undefined) return false;
      ok = false;
      e.push({ instancePath: p!, schemaPath, keyword, params: { [param]: name }, message: message(name) });
    }
    return ok;
  };
}

class Interpreter {
  private readonly refs = new Map<string, Check>();

  constructor(
    private readonly root: Node,
    private readonly pieces: WirePieces,
  ) {}

  /** A node's check, its errors' schema paths under `at`; in ajv's order (validate/index.ts schemaKeywords). */
  node(s: Node, at: string): Check {
    const types = [s.type ?? []].flat() as string[];
    const used = (keywords: readonly string[]): string[] => keywords.filter((k) => s[k] !== undefined);
    // One type whose group has rules here: its type error comes where the group runs, not first.
    const single = types.length === 1 ? GROUPS.find(([type]) => type === types[0]) : undefined;
    const typeInGroup = single !== undefined && used(single[1]).length > 0;
    const tests = types.map((t) => IS[t]!);
    const isType = tests.length === 1 ? tests[0]! : (d: unknown) => tests.some((test) => test(d));
    const typeError = rule(at, "type", { type: s.type }, `must be ${s.type}`, (d) => !isType(d));
    const checks: Check[] = [];
    if (types.length > 0 && !typeInGroup) checks.push(typeError);
    for (const [type, keywords] of GROUPS) {
      const here = used(keywords).flatMap((k) => this.keyword(s, k, at, type));
      if (type === undefined) checks.push(...here);
      else if (used(keywords).length > 0) {
        const is = IS[type]!;
        const inner = all(here);
        const otherwise = typeInGroup && single?.[0] === type ? typeError : undefined;
        if (here.length === 0 && otherwise === undefined) continue;
        checks.push((d, p, e) => (is(d) ? inner(d, p, e) : otherwise === undefined || otherwise(d, p, e)));
      }
    }
    return all(checks);
  }

  /** A keyword's check, or none (a rule that cannot fail here); `type` is the group it runs in. */
  private keyword(s: Node, k: string, at: string, type: string | undefined): Check[] {
    const v = s[k];
    switch (k) {
      case "$ref":
        return [this.ref(v as string)];
      case "const": {
        const equal = this.equalTo(v);
        return [rule(at, k, { allowedValue: v }, "must be equal to constant", (d) => !equal(d))];
      }
      case "enum": {
        const values = v as unknown[];
        const tests = values.map((x) => this.equalTo(x));
        const message = "must be equal to one of the allowed values";
        return [rule(at, k, { allowedValues: values }, message, (d) => !tests.some((equal) => equal(d)))];
      }
      case "anyOf":
        return this.anyOf(v as Node[], at);
      case "maximum":
      case "minimum":
      case "exclusiveMaximum":
      case "exclusiveMinimum": {
        const [comparison, breaks] = LIMITS[k]!;
        const n = v as number;
        return [
          rule(
            at,
            k,
            { comparison, limit: n },
            `must be ${comparison} ${n}`,
            (d: number) => breaks(d, n) || Number.isNaN(d),
          ),
        ];
      }
      case "multipleOf": {
        const n = v as number;
        // ajv's test, parseInt (of the quotient's text, never "0x…": radix 10 is what it reads) and all; its
        // test of a zero divisor is not needed: wireInterpretable takes only a multipleOf above zero.
        const breaks = (d: number): boolean => d / n !== Number.parseInt(String(d / n), 10);
        return [rule(at, k, { multipleOf: n }, `must be multiple of ${n}`, breaks)];
      }
      case "maxLength":
      case "minLength":
      case "maxItems":
      case "minItems": {
        const n = v as number;
        const more = k.startsWith("max");
        const length = k.endsWith("Length") ? ucs2length : (d: unknown[]) => d.length;
        const what = k.endsWith("Length") ? "characters" : "items";
        const message = `must NOT have ${more ? "more" : "fewer"} than ${n} ${what}`;
        return [rule(at, k, { limit: n }, message, (d: string & unknown[]) => (more ? length(d) > n : length(d) < n))];
      }
      case "pattern": {
        const re = this.pieces.re2!(v as string, "u");
        return [rule(at, k, { pattern: v }, `must match pattern "${v}"`, (d: string) => !re.test(d))];
      }
      case "format":
        return this.format(v as string, at, type!);
      case "prefixItems":
        return (v as Node[]).flatMap((item, i) => {
          if (alwaysValid(item)) return [];
          const check = this.node(item, `${at}/prefixItems/${i}`);
          return [
            (d: unknown, p: string | undefined, e: ErrorObject[] | undefined) =>
              (d as Data).length <= i || check((d as Data)[i], e && `${p}/${i}`, e),
          ];
        });
      case "items":
        return this.items(v as Node, Array.isArray(s.prefixItems) ? s.prefixItems.length : 0, at);
      case "required":
        return this.required(v as string[], at);
      case "additionalProperties":
        return v === false ? this.closed(s.properties as Node | undefined, at) : [];
      case "properties":
        return this.properties(v as Node, at);
      default:
        return [];
    }
  }

  /** A test of equality to a schema value, as ajv's: === for a scalar, JSON equality (handed in) for an object or array. */
  private equalTo(value: unknown): (d: unknown) => boolean {
    const equal = this.pieces.equal;
    return isContainer(value) ? (d) => equal!(d, value) : (d) => d === value;
  }

  /** A reference: inlined (schema paths from the `$ref`) unless the target holds a reference, then apart (from "#"), as ajv compiles it. */
  private ref(ref: string): Check {
    let check = this.refs.get(ref);
    if (check === undefined) {
      const target = resolve(this.root, ref) as Node;
      const at = hasRef(target) ? "#" : ref;
      let built: Check | undefined;
      // Built on first use: a definition may refer to itself.
      check = (d, p, e) => {
        built ??= this.node(target, at);
        return built(d, p, e);
      };
      this.refs.set(ref, check);
    }
    return check;
  }

  private anyOf(branches: Node[], at: string): Check[] {
    if (branches.some(alwaysValid)) return [];
    const checks = branches.map((b, i) => this.node(b, `${at}/anyOf/${i}`));
    const schemaPath = `${at}/anyOf`;
    return [
      (d, p, e) => {
        const before = e?.length ?? 0;
        for (const check of checks) {
          if (check(d, p, e)) {
            // A branch holds: the others' errors are dropped, as ajv resets them.
            if (e !== undefined) e.length = before;
            return true;
          }
        }
        e?.push({
          instancePath: p!,
          schemaPath,
          keyword: "anyOf",
          params: {},
          message: "must match a schema in anyOf",
        });
        return false;
      },
    ];
  }

  private format(name: string, at: string, type: string): Check[] {
    const def = this.pieces.formats?.[name];
    if (def === undefined || def === true) return [];
    const [formatType, test] =
      typeof def === "object" && def !== null && !(def instanceof RegExp)
        ? [((def as { type?: string }).type ?? "string") as string, (def as { validate: unknown }).validate]
        : ["string", def];
    if (formatType !== type) return [];
    const valid =
      typeof test === "function" ? (d: unknown) => Boolean(test(d)) : (d: string) => (test as RegExp).test(d);
    return [rule(at, "format", { format: name }, `must match format "${name}"`, (d) => !valid(d))];
  }

  private items(item: Node, from: number, at: string): Check[] {
    if (alwaysValid(item)) return [];
    const check = this.node(item, `${at}/items`);
    return [
      (d, p, e) => {
        const list = d as unknown[];
        let ok = true;
        for (let i = from; i < list.length; i++) {
          if (!check(list[i], e && `${p}/${i}`, e)) {
            if (e === undefined) return false;
            ok = false;
          }
        }
        return ok;
      },
    ];
  }

  private required(names: string[], at: string): Check[] {
    return [
      eachMember(
        at,
        "required",
        "missingProperty",
        (name) => `must have required property '${name}'`,
        () => names,
        (o, name) => o[name] === undefined || !hasOwn(o, name),
      ),
    ];
  }

  /** additionalProperties false: ajv names a member declared by a list test up to 8 members, by the object's own keys past that. */
  private closed(properties: Node | undefined, at: string): Check[] {
    const names = Object.keys(properties ?? {}).filter((k) => k !== "__proto__");
    const declared = names.length > 8 ? (k: string) => hasOwn(properties!, k) : (k: string) => names.includes(k);
    const message = () => "must NOT have additional properties";
    return [
      eachMember(at, "additionalProperties", "additionalProperty", message, Object.keys, (_o, k) => !declared(k)),
    ];
  }

  private properties(properties: Node, at: string): Check[] {
    // ajv leaves out a "__proto__" member of `properties`, and one that cannot fail.
    const members = Object.keys(properties)
      .filter((k) => k !== "__proto__" && !alwaysValid(properties[k] as Node))
      .map(
        (k) =>
          [
            k,
            `/${escapePointer(k)}`,
            this.node(properties[k] as Node, `${at}/properties/${escapeFragment(k)}`),
          ] as const,
      );
    if (members.length === 0) return [];
    return [
      (d, p, e) => {
        const o = d as Node;
        let ok = true;
        for (const [name, segment, check] of members) {
          const value = o[name];
          if (value === undefined || !hasOwn(o, name)) continue;
          if (!check(value, e && p + segment, e)) {
            if (e === undefined) return false;
            ok = false;
          }
        }
        return ok;
      },
    ];
  }
}
