#!/usr/bin/env node
/**
 * The build step of the runtime examples, as a project that deploys to a
 * Worker, the Edge or a browser runs it: each tool compiled ahead of time
 * with `strictwire compile --emit module` (no code generation is left for run
 * time), then the browser page's script bundled with esbuild for the browser.
 * Writes tools/*.tool.mjs and page/app.js beside this file (git-ignored).
 *
 *   node examples/src/runtimes/build.mjs
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const HERE = dirname(fileURLToPath(import.meta.url));
const SCHEMAS = join(HERE, "..", "..", "schemas");
// The workspace's CLI; a project of its own runs `npx strictwire compile ...` the same way.
const cli = join(HERE, "..", "..", "..", "packages", "cli", "bin", "strictwire.js");

mkdirSync(join(HERE, "tools"), { recursive: true });
for (const name of ["get_weather", "update_contact"]) {
  execFileSync(process.execPath, [
    cli,
    "compile",
    join(SCHEMAS, `${name}.json`),
    "--name",
    name,
    "--target",
    "openai",
    "--emit",
    "module",
    "-o",
    join(HERE, "tools", `${name}.tool.mjs`),
  ]);
}

await build({
  entryPoints: [join(HERE, "page", "page.mjs")],
  outfile: join(HERE, "page", "app.js"),
  bundle: true,
  minify: true,
  platform: "browser",
  format: "esm",
  logLevel: "warning",
});
console.log("runtimes: tools/get_weather.tool.mjs, tools/update_contact.tool.mjs, page/app.js");
