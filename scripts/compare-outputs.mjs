#!/usr/bin/env node
/**
 * Public results unchanged: runs the codec's public API of two built
 * checkouts over this checkout's fixtures and compares what each returns.
 *
 *   node scripts/compare-outputs.mjs <checkout-a> <checkout-b>
 *
 * Each checkout must have packages/codec/dist built (`pnpm build`). Each runs
 * in its own process over the same inputs: per schema fixture, compile (the
 * bundle, or the error), compileCodec's encode, decode, validate and
 * streamDecoder().end() on every valid and invalid value, decode of the
 * fixture's hostile texts, inspect, emitTypes and standaloneModule, loadBundle
 * of the bundle's text; parseJson of every hostile text; loadBundle of each
 * stored bundle in fixtures/bundles. The module standaloneModule writes is
 * loaded too (against the same checkout's runtime entry) and its encode,
 * decode and validate run over the same values, the source-form texts
 * (refused with the wire's errors), the hostile texts and the mistakes corpus
 * (which compileCodec's decode runs too); the modules of earlier versions in
 * fixtures/modules must load. An error is compared whole (code, path,
 * message, feedback, tree, offset, issues). Prints the number of results
 * compared, the differences counted by kind of result and the first 20 in
 * full, and exits 1 if any.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = resolve(HERE, "..", "fixtures");

/** A result as plain data: the value, or the error with every member an error carries (getters read). */
function plain(result) {
  if (result === undefined || result === null || typeof result !== "object") return result;
  if (!("ok" in result)) return result;
  if (result.ok) return { ok: true, value: result.value };
  const e = result.error;
  return {
    ok: false,
    error: {
      code: e.code,
      path: e.path,
      message: e.message,
      feedback: e.feedback,
      tree: e.tree,
      offset: e.offset,
      issues: e.issues,
      at: e.at,
    },
  };
}

function guard(f) {
  try {
    return plain(f());
  } catch (error) {
    return { threw: String(error?.message ?? error) };
  }
}

async function collect(checkout, out) {
  const codec = await import(pathToFileURL(join(checkout, "packages", "codec", "dist", "index.js")).href);
  const results = {};
  const put = (key, value) => {
    results[key] = JSON.parse(JSON.stringify(value ?? null));
  };
  const schemaDir = join(FIXTURES, "schemas");
  /** Each fixture's Codec loaded from the module standaloneModule wrote, by fixture name. */
  const modules = new Map();
  for (const file of readdirSync(schemaDir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const name = file.slice(0, -5);
    const fixture = JSON.parse(readFileSync(join(schemaDir, file), "utf8"));
    const options = fixture.options ?? {};
    const bundle = codec.compile(fixture.schema, options);
    put(`${name}/compile`, plain(bundle));
    if (bundle.ok) {
      put(
        `${name}/inspect`,
        guard(() => ({ ok: true, value: codec.inspect(bundle.value) })),
      );
      put(
        `${name}/emitTypes`,
        guard(() => codec.emitTypes(bundle.value)),
      );
      const written = guard(() => codec.standaloneModule(bundle.value));
      put(`${name}/standaloneModule`, written);
      if (written?.ok) modules.set(name, await moduleCodec(checkout, name, written.value));
      const loaded = codec.loadBundle(JSON.stringify(bundle.value));
      put(`${name}/load`, loaded.ok ? { ok: true } : plain(loaded));
    }
    const made = codec.compileCodec(fixture.schema, options);
    if (!made.ok) continue;
    const c = made.value;
    const m = modules.get(name);
    const values = [
      ...(fixture.valid ?? []).map((v, i) => [`valid-${i}`, v]),
      ...(fixture.invalid ?? []).map((v, i) => [`invalid-${i}`, v.value]),
    ];
    for (const [label, value] of values) {
      const encoded = guard(() => c.encode(value));
      put(`${name}/${label}/encode`, encoded);
      if (m !== undefined) {
        // Through the module: its encode checks the wire with the module's wire validator, and the
        // value's own text decoded (the source form, not the wire) is refused with the wire's errors.
        put(
          `${name}/${label}/module-encode`,
          guard(() => m.encode(value)),
        );
        put(
          `${name}/${label}/module-decode-source-form`,
          guard(() => m.decode(JSON.stringify(value))),
        );
        put(
          `${name}/${label}/module-validate`,
          guard(() => m.validate(value)),
        );
      }
      put(
        `${name}/${label}/validate`,
        guard(() => c.validate(value)),
      );
      if (encoded?.ok) {
        const text = JSON.stringify(encoded.value);
        put(
          `${name}/${label}/decode`,
          guard(() => c.decode(text)),
        );
        if (m !== undefined)
          put(
            `${name}/${label}/module-decode`,
            guard(() => m.decode(text)),
          );
        put(
          `${name}/${label}/decode-interpreted`,
          guard(() => c.decode(text, { interpreted: true })),
        );
        put(
          `${name}/${label}/stream`,
          guard(() => {
            const s = c.streamDecoder();
            s.push(text);
            return s.end();
          }),
        );
      }
    }
    let hostile = [];
    try {
      hostile = JSON.parse(readFileSync(join(FIXTURES, "hostile", file), "utf8"));
    } catch {
      hostile = [];
    }
    for (const h of hostile) {
      const input = h.text ?? Buffer.from(h.base64 ?? "", "base64");
      put(
        `${name}/hostile/${h.name}/decode`,
        guard(() => c.decode(input)),
      );
      if (m !== undefined)
        put(
          `${name}/hostile/${h.name}/module-decode`,
          guard(() => m.decode(input)),
        );
      put(
        `${name}/hostile/${h.name}/parseJson`,
        guard(() => codec.parseJson(input)),
      );
    }
    let mistakes = [];
    try {
      mistakes = JSON.parse(readFileSync(join(FIXTURES, "mistakes", file), "utf8"));
    } catch {
      mistakes = [];
    }
    for (const k of mistakes) {
      put(
        `${name}/mistakes/${k.name}/decode`,
        guard(() => c.decode(k.text)),
      );
      if (m !== undefined)
        put(
          `${name}/mistakes/${k.name}/module-decode`,
          guard(() => m.decode(k.text)),
        );
    }
  }
  for (const file of readdirSync(join(FIXTURES, "modules")).sort()) {
    const m = await moduleCodec(checkout, file, readFileSync(join(FIXTURES, "modules", file), "utf8"));
    put(`modules/${file}/load`, m === undefined ? { ok: false } : { ok: true });
  }
  const bundleDir = join(FIXTURES, "bundles");
  for (const file of readdirSync(bundleDir).sort()) {
    const loaded = guard(() => codec.loadBundle(readFileSync(join(bundleDir, file), "utf8")));
    put(`bundles/${file}/load`, loaded?.ok ? { ok: true } : loaded);
  }
  writeFileSync(out, JSON.stringify(results));
}

/**
 * A module's Codec, loaded against the checkout's own runtime entry: its
 * import of @strictwire/codec/… is pointed at the file that checkout's
 * package exports under that name, and the file is written outside both
 * checkouts. Undefined if it does not load.
 */
async function moduleCodec(checkout, name, text) {
  const pkg = join(checkout, "packages", "codec");
  const { exports } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  const dir = mkdtempSync(join(tmpdir(), "strictwire-compare-module-"));
  try {
    const file = join(dir, `${name}.mjs`);
    const pointed = text.replace(/from "@strictwire\/codec(\/[^"]*)?"/g, (whole, sub) => {
      const target = exports[`.${sub ?? ""}`];
      const path = typeof target === "string" ? target : target?.default;
      return path === undefined ? whole : `from ${JSON.stringify(pathToFileURL(join(pkg, path)).href)}`;
    });
    writeFileSync(file, pointed);
    const loaded = (await import(pathToFileURL(file).href)).load();
    return loaded.ok ? loaded.value : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function differences(a, b) {
  const out = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = JSON.stringify(a[key]);
    const y = JSON.stringify(b[key]);
    if (x !== y) out.push({ key, a: x?.slice(0, 300), b: y?.slice(0, 300) });
  }
  return out;
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "--collect") {
  await collect(rest[0], rest[1]);
} else {
  const [a, b] = [mode, rest[0]];
  if (a === undefined || b === undefined) {
    process.stderr.write("usage: node scripts/compare-outputs.mjs <checkout-a> <checkout-b>\n");
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), "strictwire-compare-"));
  try {
    const outputs = [a, b].map((checkout, i) => {
      const out = join(dir, `${i}.json`);
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--collect", resolve(checkout), out], {
        stdio: "inherit",
      });
      return JSON.parse(readFileSync(out, "utf8"));
    });
    const diff = differences(outputs[0], outputs[1]);
    process.stdout.write(`${Object.keys(outputs[0]).length} results compared; ${diff.length} differ\n`);
    const kinds = new Map();
    for (const d of diff) {
      const kind = d.key.split("/").at(-1);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    if (diff.length > 0) process.stdout.write(`by result: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}\n`);
    for (const d of diff.slice(0, 20)) process.stdout.write(`${d.key}\n  a: ${d.a}\n  b: ${d.b}\n`);
    process.exitCode = diff.length === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
