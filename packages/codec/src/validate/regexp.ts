/**
 * `pattern`, `patternProperties` and `propertyNames` run on untrusted strings,
 * so they go through RE2 (linear time, no backtracking) instead of the
 * JavaScript engine. A pattern RE2 cannot take (lookaround, backreferences) is
 * refused at compile time with `unsafe-pattern` rather than run unsafely.
 */
import { RE2JS } from "re2js";

export interface RegExpLike {
  test(input: string): boolean;
  toString(): string;
}

const cache = new Map<string, RegExpLike>();
const CACHE_LIMIT = 4096;

/** Compile with RE2; throws on a pattern RE2 rejects (ajv turns it into a compile failure). */
export function re2(pattern: string, _flags?: string): RegExpLike {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    const re = RE2JS.compile(pattern);
    // ajv keys compiled patterns by toString(): without a distinct one, every pattern
    // in a schema would share the first one's matcher.
    compiled = { test: (input: string) => re.test(input), toString: () => `re2:${pattern}` };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled;
}
// ajv's RegExpEngine contract: the code it emits in standalone modules.
re2.code = 'require("@strictwire/codec/regexp").re2';

/** Why RE2 refuses a pattern, or undefined when it takes it. */
export function patternProblem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
