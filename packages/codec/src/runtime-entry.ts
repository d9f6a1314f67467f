/**
 * `@strictwire/codec/runtime`: everything of the run-time entry point
 * (runtime.ts, also `@strictwire/codec/runtime/module`, which generated
 * modules import) and `loadJsonBundle`, whose loader is imported on its first
 * call. Kept apart because of that `import()`: a bundler that meets one wraps
 * every module the imported loader reaches, most of the codec, in a lazy
 * initialiser; a bundle that reaches only runtime.ts carries none.
 */
import type { Result } from "./errors.js";
import type { Codec } from "./public-codec.js";

export * from "./runtime.js";

/** Load a JSON bundle: the loader that compiles its validators (and ajv with it) is imported on the first call. */
export async function loadJsonBundle<T = unknown>(input: string | Uint8Array | unknown): Promise<Result<Codec<T>>> {
  const { loadBundle } = await import("./load.js");
  return loadBundle<T>(input);
}
