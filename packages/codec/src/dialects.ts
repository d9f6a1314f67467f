/**
 * The `dialect` option (compile's, and a bundle's `options.dialect`): a source
 * written in a dialect that is not quite JSON Schema, made into JSON Schema by
 * its input adapter (schema/adapters/) before anything reads it. "Dialect"
 * means only this; the JSON Schema version of a source is its `Draft`
 * (schema/draft.ts), a target's way of writing the wire its `Spelling`. Names
 * only, a leaf: the bundle (run time) and the schema reader (build time) both
 * take them from here.
 */
export const INPUT_DIALECTS = ["bfcl"] as const;
export type InputDialect = (typeof INPUT_DIALECTS)[number];
