export { BUNDLE_FORMAT, type Bundle, type BundleOptions } from "./bundle/bundle.js";
export { Codec, type DecodeOptions, type RawArguments } from "./codec.js";
export { type CompileOptions, compile, compileCodec } from "./compile.js";
export type { CodecError, ErrorCode, Issue, Result } from "./errors.js";
export { type Inspection, type InspectOptions, inspect, type Size, type Sizes, type TravelNode } from "./inspect.js";
export type { Field, Node, Plan, Presence, RelaxedConstraint, UnionRule } from "./ir/nodes.js";
export { loadBundle } from "./load.js";
export { DEFAULT_PARSE_LIMITS, type ParseLimits, parseJson } from "./parse/parser.js";
export { TARGET_NAMES, type TargetName, type TargetProfile, targetProfile } from "./targets/index.js";
