#!/usr/bin/env node
/**
 * Packaging test: what a user gets from the tarballs, not from the workspace.
 *
 *   pnpm build && pnpm pack-test
 *
 * Packs every publishable package under packages/ (each package.json without
 * `private: true`, so new packages are included without editing this file)
 * with `pnpm pack`, which rewrites `workspace:` ranges; checks that no tarball
 * carries build leftovers or sources; installs the tarballs into a fresh npm
 * project in a temporary folder (third-party dependencies from the registry);
 * and there imports from ESM and CommonJS, typechecks a TypeScript file under
 * moduleResolution nodenext, bundler and node10, runs `npx strictwire
 * --version` and one compile/decode round trip through the installed CLI.
 *
 * `packAndInstall` is the packing and the fresh install alone, for other
 * checks of the tarballs (the runtime matrix, runtimes/run.mjs).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.env.STRICTWIRE_KEEP_PACK === "1";

function sh(cmd, args, cwd, options = {}) {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
}

let log = (text) => console.log(text);

function step(text) {
  log(`pack-test: ${text}`);
}

/** Every package a user could install: packages/<name>/package.json without `private: true`. */
function publishable() {
  const dir = join(root, "packages");
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, "package.json")))
    .map((name) => ({
      dir: join(dir, name),
      manifest: JSON.parse(readFileSync(join(dir, name, "package.json"), "utf8")),
    }))
    .filter((p) => p.manifest.private !== true)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/**
 * What a tarball must not carry: build leftovers, sources, tests, source maps pointing at absent sources,
 * and the external corpora (corpora/, measured against in the repository, never shipped).
 */
const UNWANTED = [
  /\.tsbuildinfo$/,
  /^package\/src\//,
  /^package\/test\//,
  /\.map$/,
  /^package\/node_modules\//,
  /(^|\/)corpora\//,
  /\.gz$/,
];
const REQUIRED = ["package/package.json", "package/LICENSE", "package/README.md"];

function pack(pkg, out) {
  for (const file of ["LICENSE", "README.md"]) {
    if (!existsSync(join(pkg.dir, file))) throw new Error(`${pkg.manifest.name}: no ${file}`);
  }
  for (const field of ["repository", "homepage", "bugs", "keywords", "files", "license", "types"]) {
    if (pkg.manifest[field] === undefined) throw new Error(`${pkg.manifest.name}: package.json has no "${field}"`);
  }
  const before = new Set(readdirSync(out));
  sh("pnpm", ["pack", "--pack-destination", out], pkg.dir);
  const tarball = readdirSync(out).find((f) => !before.has(f) && f.endsWith(".tgz"));
  if (tarball === undefined) throw new Error(`${pkg.manifest.name}: pnpm pack wrote no tarball`);
  const path = join(out, tarball);
  const entries = sh("tar", ["-tzf", path], out).split("\n").filter(Boolean);
  const bad = entries.filter((e) => UNWANTED.some((re) => re.test(e)));
  if (bad.length > 0) throw new Error(`${tarball} carries files a user does not need:\n  ${bad.join("\n  ")}`);
  for (const need of REQUIRED) if (!entries.includes(need)) throw new Error(`${tarball} lacks ${need}`);
  const manifest = JSON.parse(sh("tar", ["-xzOf", path, "package/package.json"], out));
  const ranges = JSON.stringify(manifest.dependencies ?? {}) + JSON.stringify(manifest.peerDependencies ?? {});
  if (ranges.includes("workspace:")) throw new Error(`${tarball}: a workspace: range survived packing`);
  step(`${tarball}: ${entries.length} files`);
  return path;
}

const ESM = `
import { compileCodec } from "@strictwire/codec";
import { codecFromModule, codecFromPrecompiled } from "@strictwire/codec/standalone";
import * as schemaKit from "@strictwire/codec/schema";
import * as schemaKitByEarlierName from "@strictwire/codec/json";
import * as classifier from "@strictwire/classifier";
import * as cli from "@strictwire/cli";
if (schemaKit.prepareSchema !== schemaKitByEarlierName.prepareSchema) throw new Error("esm: @strictwire/codec/json is not the schema subpath");
const compiled = compileCodec({ type: "object", properties: { a: { type: "string" } }, additionalProperties: false });
if (!compiled.ok) throw new Error(compiled.error.message);
const decoded = compiled.value.decode('{"a":{"state":"absent"}}');
if (!decoded.ok || JSON.stringify(decoded.value) !== "{}") throw new Error("esm: round trip failed");
// codecFromModule: the name modules of earlier versions import from this subpath.
if (codecFromModule !== codecFromPrecompiled) throw new Error("esm: codecFromModule is not codecFromPrecompiled");
if (typeof codecFromModule !== "function" || typeof classifier.classify !== "function" || typeof cli !== "object") throw new Error("esm: exports missing");
console.log("esm ok");
`;

const CJS = `
const { compileCodec } = require("@strictwire/codec");
const { classify } = require("@strictwire/classifier");
const compiled = compileCodec({ type: "object", properties: { a: { type: "string" } }, additionalProperties: false });
if (!compiled.ok) throw new Error(compiled.error.message);
const decoded = compiled.value.decode('{"a":{"state":"present","value":"x"}}');
if (!decoded.ok || decoded.value.a !== "x" || typeof classify !== "function") throw new Error("cjs: round trip failed");
console.log("cjs ok");
`;

const ZOD = `
import { compileCodec, strictTool } from "@strictwire/codec";
import { z } from "zod";
const compiled = compileCodec(z.object({ a: z.string().optional(), n: z.number().refine((n) => n > 0, "positive") }));
if (!compiled.ok) throw new Error(compiled.error.message);
const ok = compiled.value.decode('{"a":{"state":"absent"},"n":2}');
const refused = compiled.value.decode('{"a":{"state":"absent"},"n":-1}');
if (!ok.ok || JSON.stringify(ok.value) !== '{"n":2}' || refused.ok || refused.error.code !== "contract-violation") throw new Error("zod: round trip failed");
if (!strictTool({ name: "t", description: "d", parameters: z.object({ a: z.string() }), execute: () => "x" }).ok) throw new Error("zod: strictTool failed");
console.log("zod ok");
`;

/** A consumer's file: it must typecheck against the installed declarations alone. */
const TS = `
import { type Codec, compileCodec, type Result } from "@strictwire/codec";
import { codecFromModule } from "@strictwire/codec/standalone";
import { classify, type Classification } from "@strictwire/classifier";
import { parseJson } from "@strictwire/codec/runtime";
import { canonicalJson } from "@strictwire/codec/schema";
import { canonicalJson as canonicalJsonByEarlierName } from "@strictwire/codec/json";
import { storedCalls, streamCalls, type CallUpdate } from "@strictwire/codec/providers";
import { aiSdkSourceInput } from "@strictwire/codec";
const compiled: Result<Codec<{ a?: string }>> = compileCodec<{ a?: string }>({ type: "object", properties: { a: { type: "string" } } });
if (compiled.ok) {
  const decoded = compiled.value.decode("{}");
  const a: string | undefined = decoded.ok ? decoded.value.a : undefined;
  void a;
}
const c: Classification = classify({ name: "t", callId: "1", arguments: "{}" }, {});
void c;
void codecFromModule;
const parsed = parseJson("{}");
const text: string = canonicalJson(parsed.ok ? parsed.value : null);
void text;
// The earlier name of the subpath (kept as an alias): the same function.
const same: typeof canonicalJson = canonicalJsonByEarlierName;
void same;
void storedCalls;
const updates: readonly CallUpdate[] = streamCalls("anthropic", {}).event({ type: "message_start" });
void updates;
const transform: TransformStream<{ type: string }, { type: string }> = aiSdkSourceInput({})({ stopStream: () => {} });
void transform;
export {};
`;

const RESOLUTIONS = [
  { name: "nodenext", module: "nodenext", moduleResolution: "nodenext" },
  { name: "bundler", module: "esnext", moduleResolution: "bundler" },
  { name: "node10", module: "commonjs", moduleResolution: "node10" },
];

/**
 * Packs every publishable package into `work`/tarballs and installs the tarballs, with `extra` package
 * specs, into a fresh npm project at `work`/project. Returns the project's folder and the packages.
 * `progress` receives the lines this prints (to the console unless given).
 */
export function packAndInstall(work, extra = [], progress = log) {
  log = progress;
  const packages = publishable();
  const tarballs = join(work, "tarballs");
  const project = join(work, "project");
  mkdirSync(tarballs);
  mkdirSync(project);
  const paths = packages.map((p) => pack(p, tarballs));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, version: "0.0.0" }));
  step(`npm install of ${paths.length} tarballs into ${project}`);
  sh("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...paths, ...extra], project);
  return { project, packages };
}

function main(work) {
  const started = Date.now();
  const typescript = JSON.parse(readFileSync(join(root, "node_modules/typescript/package.json"), "utf8")).version;
  const nodeTypes = JSON.parse(readFileSync(join(root, "node_modules/@types/node/package.json"), "utf8")).version;
  const { project, packages } = packAndInstall(work, [`typescript@${typescript}`, `@types/node@${nodeTypes}`]);

  writeFileSync(join(project, "esm.mjs"), ESM);
  writeFileSync(join(project, "cjs.cjs"), CJS);
  console.log(sh(process.execPath, ["esm.mjs"], project).trim());
  console.log(sh(process.execPath, ["cjs.cjs"], project).trim());

  writeFileSync(join(project, "consumer.ts"), TS);
  for (const r of RESOLUTIONS) {
    const config = {
      compilerOptions: {
        module: r.module,
        moduleResolution: r.moduleResolution,
        target: "es2022",
        strict: true,
        noEmit: true,
        types: ["node"],
        // Only our own declarations are under test, not those of our dependencies under node10.
        skipLibCheck: true,
      },
      files: ["consumer.ts"],
    };
    writeFileSync(join(project, `tsconfig.${r.name}.json`), JSON.stringify(config));
    try {
      sh(join(project, "node_modules/.bin/tsc"), ["-p", `tsconfig.${r.name}.json`], project);
    } catch (error) {
      throw new Error(`typecheck under moduleResolution ${r.name} failed:\n${error.stdout}${error.stderr}`);
    }
    step(`types resolve under moduleResolution ${r.name}`);
  }

  // Zod is an optional peer: everything above ran without it; with it, a Zod schema compiles and decodes.
  const zod = JSON.parse(readFileSync(join(root, "packages/codec/node_modules/zod/package.json"), "utf8")).version;
  sh("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `zod@${zod}`], project);
  writeFileSync(join(project, "zod.mjs"), ZOD);
  console.log(sh(process.execPath, ["zod.mjs"], project).trim());

  const version = sh("npx", ["--no-install", "strictwire", "--version"], project).trim();
  step(`npx strictwire --version: ${version}`);
  writeFileSync(
    join(project, "weather.json"),
    JSON.stringify({
      type: "object",
      properties: { city: { type: "string" }, unit: { enum: ["C", "F"] } },
      required: ["city"],
    }),
  );
  sh(
    "npx",
    ["--no-install", "strictwire", "compile", "weather.json", "-o", "weather.bundle.json", "--name", "get_weather"],
    project,
  );
  const decoded = sh("npx", ["--no-install", "strictwire", "decode", "weather.bundle.json"], project, {
    input: '{"city":"Oslo","unit":{"state":"absent"}}',
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (JSON.stringify(JSON.parse(decoded)) !== '{"city":"Oslo"}') throw new Error(`cli round trip: got ${decoded}`);
  step(`cli compile/decode round trip: ${decoded.trim()}`);
  step(`ok in ${((Date.now() - started) / 1000).toFixed(1)} s (${packages.map((p) => p.manifest.name).join(", ")})`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const work = mkdtempSync(join(tmpdir(), "strictwire-pack-"));
  try {
    main(work);
  } catch (error) {
    console.error(`pack-test: FAILED: ${error.message}`);
    process.exitCode = 1;
  } finally {
    if (keep) console.log(`pack-test: kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}
