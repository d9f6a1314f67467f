/**
 * `@strictwire/codec/schema`: a schema read exactly as the codec reads it
 * (draft detection, the same preparation) and the JSON utilities it reads
 * with, for packages that must agree with the codec (the classifier, the
 * benchmark, the scripts). `@strictwire/codec/json` is the same module under
 * its earlier name, kept so existing imports keep working.
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
export { type Draft, detectDraft, familyOf, rewriteDraft04, type ValidatorFamily } from "../schema/draft.js";
export { type PreparedSource, prepareSource as prepareSchema } from "../schema/prepare.js";
