/** Reading a directory of strictwire bundles into codecs the classifier can match. */
import { readdir } from "node:fs/promises";
import { sep } from "node:path";
import { loadBundle, type Result } from "@strictwire/codec";
import { readFileCapped } from "@strictwire/codec/files";
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

/** The most a bundle or ids file may hold (the CLI's own input bound): read counted, never trusted to stat. */
export const FILE_CAP = 256 * 1024 * 1024;

/** A regular file's text, or why not (a device, FIFO or directory is refused unopened). */
export async function readTextFile(file: string): Promise<Result<string, { readonly message: string }>> {
  const read = await readFileCapped(file, FILE_CAP);
  if (!read.ok) return { ok: false, error: { message: `${read.error.code}: ${read.error.message}` } };
  return { ok: true, value: new TextDecoder().decode(read.value) };
}

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
      // Every entry so named is judged on reading (a link through what it names): one that is no regular file (a
      // FIFO, a directory) is listed as skipped with the reason, not passed over in silence.
      .filter((entry) => entry.name.endsWith(".json"))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    return { ok: false, error: { message: `cannot read the bundles directory (${errorMessage(error)})` } };
  }
  const codecs: ToolCodec[] = [];
  const texts: string[] = [];
  const skipped: { file: string; message: string }[] = [];
  for (const name of names) {
    // Not path.join, which cancels "link/.." by spelling: the file the listing named, as the kernel reads dir.
    const file = dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
    const text = await readTextFile(file);
    if (!text.ok) {
      skipped.push({ file, message: text.error.message });
      continue;
    }
    try {
      const loaded = load(text.value);
      if (loaded.ok) {
        codecs.push(loaded.value);
        texts.push(text.value);
      } else skipped.push({ file, message: loaded.error.message });
    } catch (error) {
      skipped.push({ file, message: errorMessage(error) });
    }
  }
  return { ok: true, value: { codecs, texts, skipped } };
}
