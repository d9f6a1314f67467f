/**
 * ajv's standalone output made into code a module can hold: the one place
 * where text another generator wrote becomes `Code` (code.ts's
 * `adopt`). ajv writes CommonJS for Node; a strictwire module is an ES module
 * that imports only `@strictwire/codec/runtime`. Each rewrite below is
 * audited here and tested on ajv's real output (test/ajv-code.test.ts),
 * with a count of what it changed, so that a change in ajv's output shape
 * fails a test instead of passing unrewritten.
 */
import { _, adopt, type Code, join, type Name } from "../code.js";
import { ok, pointerToken, type Result } from "../errors.js";
import { fail } from "../feedback/author.js";
import { DUPLICATE_ITEMS_CODE, EQUAL_CODE } from "./equality.js";
import { re2 } from "./regexp.js";

/** The run-time pieces a validator may call: each a named export of `@strictwire/codec/runtime`. */
export type RuntimePiece = "duplicateItems" | "equal" | "fullFormats" | "re2" | "ucs2length";

/**
 * Every `require` ajv's code generation writes for JSON Schema validators, and
 * the piece it stands for. Outside string literals these appear only as
 * written here (inside one, a quote would be escaped), so a plain search is exact.
 * ajv's own `equal` is not here: only const, enum and uniqueItems call it,
 * and equality.ts replaces all three; were it written, step 4 refuses it.
 */
export const AJV_REQUIRES: readonly (readonly [string, RuntimePiece])[] = [
  [EQUAL_CODE, "equal"],
  [DUPLICATE_ITEMS_CODE, "duplicateItems"],
  ['require("ajv/dist/runtime/ucs2length").default', "ucs2length"],
  ['require("ajv-formats/dist/formats").fullFormats', "fullFormats"],
  [re2.code, "re2"],
];

/** A piece as the validators read it: a member of the object the module gathers the imports in. */
const PIECE_CODE: Readonly<Record<RuntimePiece, (runtime: Name) => Code>> = {
  duplicateItems: (r) => _`${r}.duplicateItems`,
  equal: (r) => _`${r}.equal`,
  fullFormats: (r) => _`${r}.fullFormats`,
  re2: (r) => _`${r}.re2`,
  ucs2length: (r) => _`${r}.ucs2length`,
};

/** What the rewrites changed: how many times each matched (a test holds each to matching ajv's output). */
export interface Rewrites {
  /** Requires replaced, by the text ajv wrote. */
  readonly requires: ReadonlyMap<string, number>;
  /** `"__proto__":` keys made computed. */
  readonly protoKeys: number;
  /** Schema literals declared and never read, left out. */
  readonly unusedSchemas: number;
}

export interface AjvCode {
  /** An expression: the validators' `module.exports`, their names scoped inside it. */
  readonly code: Code;
  /** The pieces the code calls, which the module must import. */
  readonly pieces: ReadonlySet<RuntimePiece>;
  readonly rewrites: Rewrites;
}

/**
 * ajv's standalone code for validators of `schema` (the text `generate`
 * returns) as code, or why it cannot be:
 * 1. an `$id` holding `*\/` is refused: ajv puts each `$id` in a comment
 *    (`/*# sourceURL="…" *\/`), quoted as JSON, which does not escape `*\/`,
 *    so such an id would end the comment and run as code;
 * 2. a schema literal ajv declares and no code reads is left out (see
 *    unusedSchemas), then `"__proto__":` keys become `["__proto__"]:` (see below);
 * 3. each require of AJV_REQUIRES becomes `runtime.<piece>`;
 * 4. any require left is refused: the module imports nothing else;
 * 5. the CommonJS text is wrapped in a function giving its `module.exports`.
 */
export function ajvCode(
  which: "source" | "wire",
  schema: unknown,
  generate: () => string,
  runtime: Name,
): Result<AjvCode> {
  const breaking = commentBreakingId(schema);
  if (breaking !== undefined) {
    return fail("unsupported-schema", `/${which}${breaking}`, 'an $id holding "*/" cannot be written as code');
  }
  let text: string;
  try {
    text = generate();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail("invalid-bundle", `/${which}`, `the ${which} schema's validator cannot be written as code: ${reason}`);
  }
  const unused = unusedSchemas(text);
  text = unused.text;
  // ajv writes schema values as object literals, where a "__proto__" key would set the
  // prototype instead of a member; a computed key is an own member. Unescaped, a quoted
  // key after { or , occurs only in those literals.
  let protoKeys = 0;
  text = text.replace(/([{,])"__proto__":/g, (_match, before: string) => {
    protoKeys++;
    return `${before}["__proto__"]:`;
  });
  const pieces = new Set<RuntimePiece>();
  const requires = new Map<string, number>();
  const parts: Code[] = [];
  let rest = text;
  for (;;) {
    let first: { at: number; required: string; piece: RuntimePiece } | undefined;
    for (const [required, piece] of AJV_REQUIRES) {
      const at = rest.indexOf(required);
      if (at >= 0 && (first === undefined || at < first.at)) first = { at, required, piece };
    }
    if (first === undefined) break;
    parts.push(adopt(rest.slice(0, first.at)), PIECE_CODE[first.piece](runtime));
    pieces.add(first.piece);
    requires.set(first.required, (requires.get(first.required) ?? 0) + 1);
    rest = rest.slice(first.at + first.required.length);
  }
  parts.push(adopt(rest));
  // Read on the text ajv wrote with the requires known here removed.
  const left = /require\("([^"]*)"\)/.exec(AJV_REQUIRES.reduce((t, [required]) => t.split(required).join(""), text));
  if (left !== null) {
    return fail(
      "unsupported-schema",
      `/${which}`,
      `the ${which} schema's validator needs ${JSON.stringify(left[1])}, which a standalone module does not import`,
    );
  }
  const code = _`(() => {\n  const module = { exports: {} };\n  const exports = module.exports;\n  ${join(parts, _``)}\n  return module.exports;\n})()`;
  return ok({ code, pieces, rewrites: { requires, protoKeys, unusedSchemas: unused.count } });
}

/**
 * ajv declares each compiled schema as a literal (`const schema0 = {…};`)
 * whether or not its code reads it; a bundler keeps it (it sits inside the
 * function the module wraps the validators in), so an unread one is the
 * schema again, dead, in every validator. A declaration is left out only
 * when all of these hold, which text inside a string literal, a comment or a
 * regular expression cannot meet: it starts a statement (after `;`, a line
 * break or the text's start); its value is JSON holding a quote, read to its
 * end by JSON's own grammar (inside one of ajv's strings every quote is
 * escaped, so the read fails there) and followed by `;`; and its name occurs
 * nowhere else in the text (an occurrence inside a string keeps it: safe).
 */
export function unusedSchemas(text: string): { readonly text: string; readonly count: number } {
  const cuts: [number, number][] = [];
  for (const m of text.matchAll(/(?<=^|[;\n])const (schema\d+) = (?=[{[])/g)) {
    const name = m[1]!;
    const start = m.index + m[0].length;
    const end = jsonEnd(text, start);
    if (end === undefined || text[end] !== ";") continue;
    const literal = text.slice(start, end);
    if (!literal.includes('"') || !parsesAsJson(literal)) continue;
    const uses = text.match(new RegExp(`(?<![\\w$])${name}(?![\\w$])`, "g"))?.length ?? 0;
    if (uses === 1) cuts.push([m.index, end + 1]);
  }
  let out = text;
  for (const [from, to] of cuts.reverse()) out = out.slice(0, from) + out.slice(to);
  return { text: out, count: cuts.length };
}

/** Where the JSON object or array starting at `from` ends (just past its closing bracket), reading strings as JSON does. */
function jsonEnd(text: string, from: number): number | undefined {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (i >= text.length) return undefined;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Where the first `$id` that would end ajv's sourceURL comment is, if any. */
function commentBreakingId(root: unknown): string | undefined {
  const work: [unknown, string][] = [[root, ""]];
  while (work.length > 0) {
    const [node, at] = work.pop()!;
    if (typeof node !== "object" || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${pointerToken(key)}`;
      // As ajv quotes it: JSON, or a list joined first; either way "*/" in it shows in its JSON.
      if (key === "$id" && JSON.stringify(value).includes("*/")) return here;
      work.push([value, here]);
    }
  }
  return undefined;
}
