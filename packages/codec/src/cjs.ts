/** A CommonJS `exports.default`: Node's default import is module.exports, a bundler's may be unwrapped already. */
export function cjsDefault<T>(module: { default: T }): T {
  return typeof module === "function" ? (module as T) : module.default;
}
