#!/usr/bin/env node
/**
 * The README's Quick start, end to end with the built CLI: compile fixture
 * schemas into bundles, show how each expands on the wire (inspect), and
 * round-trip one value (encode it, then decode the wire text it gives), showing
 * which members stay absent, and show a call the decoder refuses (a duplicated
 * key) with the feedback a model would get as the tool result. Then one call
 * is streamed through `decode --stream` as a model would write it: the partial
 * source values as the pieces arrive, then the decoded value.
 *
 *   pnpm build && pnpm demo [fixture-name...]
 *
 * Each fixture file is {description, schema, options?, valid, invalid}; the
 * CLI takes a plain JSON Schema, so the demo writes the `schema` member to a
 * temp file first.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "packages/cli/bin/strictwire.js");
const schemasDir = join(root, "fixtures/schemas");

const colour = process.stdout.isTTY && process.env.NO_COLOR === undefined;
const bold = (s) => (colour ? `\u001b[1m${s}\u001b[22m` : s);
const dim = (s) => (colour ? `\u001b[2m${s}\u001b[22m` : s);

/** Used only when no fixture is there yet, so that the demo always shows something. */
const BUILT_IN = {
  description: "built-in example: a settings patch where absent and null mean different things",
  schema: {
    type: "object",
    description: "Update account settings. Omit a field to leave it unchanged; send null to reset it.",
    properties: {
      name: { type: ["string", "null"], minLength: 1 },
      theme: { enum: ["light", "dark", "system", null] },
      labels: { type: "object", additionalProperties: { type: "string" } },
    },
    additionalProperties: false,
  },
  valid: [{ name: null, labels: { team: "core" } }],
};

/** Compile options a fixture may carry, as CLI flags. */
const FLAGS = {
  target: (v) => ["--target", v],
  presence: (v) => ["--presence", v],
  openObjects: (v) => ["--open-objects", v],
  factored: (v) => (v ? ["--factored"] : []),
  dialect: (v) => ["--dialect", v],
};

/** The first call that round-tripped: the one streamed through the CLI at the end. */
let streamable;

async function main(requested) {
  if (!existsSync(join(root, "packages/cli/dist/main.js"))) {
    console.error("demo: the CLI is not built yet; run `pnpm build` first");
    return 2;
  }
  const fixtures = chooseFixtures(requested);
  const work = mkdtempSync(join(tmpdir(), "strictwire-demo-"));
  try {
    const outcomes = fixtures.map(({ name, fixture }) => demo(name, fixture, work));
    const failed = outcomes.filter((o) => o === "failed").length;
    const skipped = outcomes.filter((o) => o === "skipped").length;
    const streamed = streamable === undefined ? "skipped" : await streamCall(streamable, work);
    console.log(
      bold(`\n${fixtures.length - failed - skipped} of ${fixtures.length} fixtures compiled and round-tripped`) +
        (skipped > 0 ? dim(` (${skipped} skipped: not supported yet)`) : ""),
    );
    return failed > 0 || streamed === "failed" ? 1 : 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The settings fixtures and labels-map, else whatever fixtures exist, else the built-in example. */
function chooseFixtures(requested) {
  const all = existsSync(schemasDir)
    ? readdirSync(schemasDir)
        .filter((n) => n.endsWith(".json"))
        .sort()
    : [];
  let names;
  if (requested.length > 0) names = requested.map((n) => (n.endsWith(".json") ? n : `${n}.json`));
  else {
    // The settings fixtures first: absent, null and a value are the story the Quick start tells.
    const preferred = [...all.filter((n) => n.startsWith("settings-")), ...all.filter((n) => n === "labels-map.json")];
    names = preferred.length > 0 ? preferred : all;
  }
  const loaded = [];
  for (const file of names) {
    try {
      loaded.push({
        name: file.slice(0, -".json".length),
        fixture: JSON.parse(readFileSync(join(schemasDir, file), "utf8")),
      });
    } catch (error) {
      console.error(`demo: skipping ${file}: ${error.message}`);
    }
  }
  if (loaded.length === 0) {
    console.error(dim("demo: no fixtures in fixtures/schemas yet; using a built-in example"));
    loaded.push({ name: "settings-example", fixture: BUILT_IN });
  }
  return loaded;
}

/** One fixture: compile, inspect, round trip. Returns "ok", "skipped" or "failed". */
function demo(name, fixture, work) {
  console.log(bold(`\n━━ ${name} ━━`));
  if (typeof fixture.description === "string") console.log(dim(fixture.description));
  if (fixture.schema === undefined) {
    console.log("  no `schema` member: not a fixture file");
    return "failed";
  }
  // The CLI runs in the work directory, so that its messages show short relative names.
  const schemaFile = `${name}.json`;
  const bundleFile = `${name}.bundle.json`;
  writeFileSync(join(work, schemaFile), JSON.stringify(fixture.schema));

  const flags = Object.entries(fixture.options ?? {}).flatMap(([k, v]) => FLAGS[k]?.(v) ?? []);
  const compiled = run(["compile", schemaFile, "-o", bundleFile, ...flags], work, "inherit");
  if (compiled.status === 2) return "skipped";
  if (compiled.status !== 0) return "failed";

  console.log();
  if (run(["inspect", bundleFile], work, "inherit").status !== 0) return "failed";
  return roundTrip(fixture, bundleFile, work, name);
}

function roundTrip(fixture, bundleFile, work, name) {
  const value = pickValue(fixture.valid ?? [], fixture.schema);
  if (value === undefined) {
    console.log("\n  (no valid value to round-trip)");
    return "ok";
  }
  const valueFile = `${name}.value.json`;
  const wireFile = `${name}.wire.txt`;
  writeFileSync(join(work, valueFile), JSON.stringify(value));

  console.log(`\n${bold("round trip")}`);
  console.log(`  value    ${JSON.stringify(value)}`);
  const encoded = run(["encode", bundleFile, valueFile], work, "pipe");
  if (encoded.status !== 0) return "failed";
  const wireText = encoded.stdout.trim();
  console.log(`  wire     ${wireText}`);
  writeFileSync(join(work, wireFile), wireText);
  const decoded = run(["decode", bundleFile, wireFile], work, "pipe");
  if (decoded.status !== 0) return "failed";
  const back = JSON.parse(decoded.stdout);
  console.log(`  decoded  ${JSON.stringify(back)}`);
  const same = isDeepStrictEqual(back, value);
  console.log(same ? "  ✓ decoded value equals the original" : "  ✗ decoded value differs from the original");
  const absent = absentMembers(fixture.schema, value);
  if (absent.length > 0) {
    const kept = absent.every((k) => !Object.hasOwn(back, k));
    console.log(`  absent   ${absent.join(", ")}: left out, and still absent after decoding (not null)`);
    if (!kept) return "failed";
  }
  if (!same) return "failed";
  // A call that leaves members out shows them staying absent while it streams.
  if (streamable === undefined || (!streamable.leavesOut && absent.length > 0))
    streamable = { name, bundleFile, wireText, value, leavesOut: absent.length > 0 };
  return refusal(bundleFile, wireText, work, name);
}

/** A call the decoder must refuse: the wire text with its first argument written twice, as a model might. */
function refusal(bundleFile, wireText, work, name) {
  // An object root travels bare; any other root is wrapped in {"arguments": …}.
  const open = wireText.startsWith('{"arguments":{') ? '{"arguments":{' : "{";
  const first = wireText.startsWith(open) ? firstMember(wireText.slice(open.length)) : undefined;
  // The Quick start promises a refused call for every fixture: not finding one is a failure, not a quiet skip.
  if (first === undefined) {
    console.log(`\n${bold("refused call")}\n  ✗ no member to write twice in ${wireText.slice(0, 80)}`);
    return "failed";
  }
  const bad = `${open}${first},${wireText.slice(open.length)}`;
  const badFile = `${name}.refused.txt`;
  writeFileSync(join(work, badFile), bad);
  console.log(`\n${bold("refused call")}`);
  console.log(`  model    ${bad}`);
  const decoded = run(["decode", bundleFile, badFile, "--json"], work, "pipe", "pipe");
  if (decoded.status !== 1) {
    console.log("  ✗ the decoder accepted a duplicated key");
    return "failed";
  }
  const report = JSON.parse(decoded.stdout);
  console.log(`  error    ${report.error.code} at ${report.error.path || "(root)"}`);
  console.log(`  feedback ${report.error.feedback}`);
  return "ok";
}

/** Pieces of the wire text one call is streamed in, and the pause between them. */
const STREAM_PIECES = 6;
const STREAM_PAUSE_MS = 80;

/**
 * One call streamed through `decode --stream`, its wire text written to the CLI's standard input in pieces
 * with pauses, as a model's deltas arrive: each partial line is shown as it comes, then the decoded value.
 */
async function streamCall({ name, bundleFile, wireText, value }, work) {
  const args = ["decode", "--stream", bundleFile, "-"];
  console.log(bold(`\n━━ streamed call (${name}) ━━`));
  console.log(`  wire     ${wireText}`);
  console.log(dim(`$ strictwire ${args.join(" ")}   # the wire text written in ${STREAM_PIECES} pieces`));
  const child = spawn(process.execPath, [bin, ...args], { cwd: work, stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.on("error", () => undefined); // it may stop reading early; its exit code tells
  const lines = [];
  let pending = "";
  let wake = () => undefined;
  child.stdout.on("data", (chunk) => {
    pending += chunk.toString("utf8");
    for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      lines.push(line);
      console.log(`  ${line}`);
      wake();
    }
  });
  const exited = new Promise((done) => child.on("close", done));
  const size = Math.ceil(wireText.length / STREAM_PIECES);
  for (let at = 0; at < wireText.length; at += size) {
    child.stdin.write(wireText.slice(at, at + size));
    // The first piece waits for the CLI to start reading, so the pieces after it arrive one by one.
    if (at === 0) await Promise.race([new Promise((done) => (wake = done)), exited, sleep(5_000)]);
    else await sleep(STREAM_PAUSE_MS);
  }
  child.stdin.end();
  const code = await exited;
  const partials = lines.filter((l) => l.startsWith('{"partial":')).length;
  const last = lines.at(-1);
  const same = code === 0 && last !== undefined && isDeepStrictEqual(JSON.parse(last), value);
  console.log(
    same
      ? `  ✓ streamed: ${partials} partial values, then the decoded value equals the original`
      : `  ✗ streamed: exit ${code}, the last line is not the original value`,
  );
  return same && partials > 0 ? "ok" : "failed";
}

/** The first `"name":value` of an object's members, by parsing just far enough. */
function firstMember(rest) {
  for (let end = rest.indexOf(","); end > 0; end = rest.indexOf(",", end + 1)) {
    const candidate = rest.slice(0, end);
    try {
      JSON.parse(`{${candidate}}`);
      return candidate;
    } catch {
      // Not a whole member yet: the comma was inside a value.
    }
  }
  // One member only: all of the rest but the closing brace (two of them under {"arguments": …}).
  for (const close of [1, 2]) {
    const whole = rest.slice(0, -close);
    try {
      JSON.parse(`{${whole}}`);
      return whole;
    } catch {
      // Not this many closing braces.
    }
  }
  return undefined;
}

/** The schema's top-level properties the value leaves out. */
function absentMembers(schema, value) {
  if (schema === null || typeof schema !== "object" || value === null || typeof value !== "object") return [];
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object") return [];
  return Object.keys(properties).filter((k) => !Object.hasOwn(value, k));
}

/**
 * The valid value with the most members that still reads on one line, preferring one that leaves a
 * member out: it shows the most of the wire, absent members included.
 */
function pickValue(valid, schema) {
  const fits = valid.filter((v) => JSON.stringify(v).length <= 160);
  const short = fits.length > 0 ? fits : valid;
  const leavingOut = short.filter((v) => absentMembers(schema, v).length > 0);
  const pool = leavingOut.length > 0 ? leavingOut : short;
  return pool.reduce((best, v) => (best === undefined || members(v) > members(best) ? v : best), undefined);
}

function members(value) {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.length + children.reduce((n, child) => n + members(child), 0);
}

/** Runs the built CLI, showing the command; "pipe" captures stdout; stderr reaches the terminal unless captured too. */
function run(args, cwd, stdout, stderr = "inherit") {
  if (stdout === "inherit") console.log(dim(`$ strictwire ${args.join(" ")}`));
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    stdio: ["ignore", stdout, stderr],
    encoding: "utf8",
  });
  if (result.error) console.error(`demo: cannot run the CLI: ${result.error.message}`);
  return result;
}

process.exitCode = await main(process.argv.slice(2));
