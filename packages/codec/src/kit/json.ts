/**
 * `@strictwire/codec/json`: the codec's JSON utilities and draft detection,
 * for packages that must read JSON and schemas exactly as the codec does
 * (the classifier, the benchmark, the scripts).
 */
export { pointerJoin, pointerToken } from "../errors.js";
export {
  canonicalJson,
  cloneJson,
  isPlainObject,
  type JsonObject,
  type JsonType,
  type JsonValue,
  jsonEqual,
  jsonTypeOf,
  pointerTokens,
  setOwn,
  unescapeToken,
} from "../json.js";
export {
  type Dialect as Draft,
  detectDialect as detectDraft,
  familyOf,
  rewriteDraft04,
  type ValidatorFamily,
} from "../schema/draft.js";
export { type PreparedSource, prepareSource as prepareSchema } from "../schema/prepare.js";
