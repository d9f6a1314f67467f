/** Reading a directory of strictwire bundles into codecs the classifier can match. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { loadBundle, type Result } from "@strictwire/codec";
import type { ToolCodec } from "./codecs.js";
import { errorMessage } from "./json.js";

export type BundleLoader = (text: string) => Result<ToolCodec, { readonly message: string }>;

/** One bundle file's text, through the codec's own checks (shape, digest, validators). */
export const codecBundleLoader: BundleLoader = (text) => {
  const loaded = loadBundle(text);
  if (!loaded.ok) return { ok: false, error: { message: `${loaded.error.code}: ${loaded.error.message}` } };
  const codec = loaded.value;
  return {
    ok: true,
    value: {
      name: codec.bundle.name,
      digest: codec.bundle.digest,
      wire: codec.bundle.wire,
      decode: (raw) => codec.decode(raw),
    },
  };
};

export interface LoadedBundles {
  readonly codecs: readonly ToolCodec[];
  /** The loaded bundles' texts, in the codecs' order, for worker threads to load their own. */
  readonly texts: readonly string[];
  /** Files that were not bundles; reported and skipped, since a directory may hold other JSON. */
  readonly skipped: readonly { readonly file: string; readonly message: string }[];
}

export async function loadBundlesDir(
  dir: string,
  load: BundleLoader = codecBundleLoader,
): Promise<Result<LoadedBundles, { readonly message: string }>> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    return { ok: false, error: { message: `cannot read the bundles directory (${errorMessage(error)})` } };
  }
  const codecs: ToolCodec[] = [];
  const texts: string[] = [];
  const skipped: { file: string; message: string }[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      const text = await readFile(file, "utf8");
      const loaded = load(text);
      if (loaded.ok) {
        codecs.push(loaded.value);
        texts.push(text);
      } else skipped.push({ file, message: loaded.error.message });
    } catch (error) {
      skipped.push({ file, message: errorMessage(error) });
    }
  }
  return { ok: true, value: { codecs, texts, skipped } };
}
