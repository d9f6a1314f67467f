#!/usr/bin/env node
/**
 * The README's Quick start, end to end with the built CLI: compile fixture
 * schemas into bundles, show how each expands on the wire (inspect), and
 * round-trip one value (encode it, then decode the wire text it gives), showing
 * which members stay absent, and show a call the decoder refuses (a duplicated
 * key) with the feedback a model would get as the tool result. The first
 * fixture's call is also decoded as a stream (`decode --stream`, fed in
 * pieces): its partial values, then the decoded value.
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

async function main(requested) {
  if (!existsSync(join(root, "packages/cli/dist/main.js"))) {
    console.error("demo: the CLI is not built yet; run `pnpm build` first");
    return 2;
  }
  const fixtures = chooseFixtures(requested);
  const work = mkdtempSync(join(tmpdir(), "strictwire-demo-"));
  try {
    const outcomes = fixtures.map(({ name, fixture }) => demo(name, fixture, work));
    const first = fixtures.findIndex((_, i) => outcomes[i] === "ok");
    if (first >= 0 && (await streamed(fixtures[first].name, work)) === "failed") outcomes[first] = "failed";
    const failed = outcomes.filter((o) => o === "failed").length;
    const skipped = outcomes.filter((o) => o === "skipped").length;
    console.log(
      bold(`\n${fixtures.length - failed - skipped} of ${fixtures.length} fixtures compiled and round-tripped`) +
        (skipped > 0 ? dim(` (${skipped} skipped: not supported yet)`) : ""),
    );
    return failed > 0 ? 1 : 0;
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
  return refusal(bundleFile, wireText, work, name);
}

/** One call streamed to `decode --stream` in pieces, as a model writes it: each partial value, then the decoded one. */
async function streamed(name, work) {
  const bundleFile = `${name}.bundle.json`;
  const wireText = readFileSync(join(work, `${name}.wire.txt`), "utf8");
  const value = JSON.parse(readFileSync(join(work, `${name}.value.json`), "utf8"));
  console.log(bold(`\n━━ ${name}, streamed ━━`));
  console.log(dim(`$ … | strictwire decode ${bundleFile} --stream -`));
  const child = spawn(process.execPath, [bin, "decode", bundleFile, "--stream", "-"], {
    cwd: work,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  let wake = () => undefined;
  child.stdout.setEncoding("utf8").on("data", (text) => {
    out += text;
    wake();
  });
  const exited = new Promise((done) => child.on("close", done));
  child.stdin.on("error", () => undefined);
  const size = Math.max(1, Math.ceil(wireText.length / 8));
  for (let at = 0; at < wireText.length; at += size) {
    child.stdin.write(wireText.slice(at, at + size));
    // Wait for the line this piece gives (the first waits for node to start), or a moment when it gives none:
    // the pieces then arrive apart, as a model's deltas do.
    await new Promise((done) => {
      const timer = setTimeout(done, at === 0 ? 5000 : 200);
      wake = () => {
        clearTimeout(timer);
        done();
      };
    });
  }
  child.stdin.end();
  const status = await exited;
  const lines = out.trim().split("\n");
  const partials = lines.slice(0, -1).map((line) => JSON.parse(line).partial);
  for (const partial of partials) console.log(`  partial  ${JSON.stringify(partial)}`);
  const back = status === 0 ? JSON.parse(lines.at(-1)) : undefined;
  console.log(`  decoded  ${JSON.stringify(back)}`);
  const same = isDeepStrictEqual(back, value);
  console.log(same ? "  ✓ the streamed call decodes to the original" : "  ✗ the streamed call decodes differently");
  return same && partials.length > 0 ? "ok" : "failed";
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
