#!/usr/bin/env node
// The public API as a contract: one API Extractor report per published entry point, committed
// under api/. `pnpm api:check` (CI) fails when the built declarations no longer match a report;
// `pnpm api:update` rewrites the reports after a deliberate change (add a CHANGELOG.md line).
// Reads dist/ (run `pnpm build` first): the report is what a user's compiler sees.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const update = process.argv.includes("--update");

// Each entry point of each package's `exports`, by its report name. `@strictwire/codec/json` is
// the same file as `/schema` (an earlier name), so it has no report of its own.
const ENTRIES = [];
for (const pkg of ["codec", "classifier", "eval", "mcp", "cli"]) {
  const dir = join(root, "packages", pkg);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const seen = new Set();
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const types = typeof target === "object" ? target.types : undefined;
    if (typeof types !== "string" || seen.has(types)) continue;
    seen.add(types);
    // A nested subpath's report is named with dashes (`./runtime/module`: codec-runtime-module).
    const suffix = subpath === "." ? "" : `-${subpath.slice(2).replaceAll("/", "-")}`;
    ENTRIES.push({ name: `${pkg}${suffix}`, dir, types: join(dir, types) });
  }
}

const work = mkdtempSync(join(tmpdir(), "strictwire-api-"));
let failed = 0;
try {
  for (const entry of ENTRIES) {
    if (!existsSync(entry.types)) {
      console.error(`api: ${entry.name}: ${entry.types} is missing (run pnpm build first)`);
      failed++;
      continue;
    }
    const config = ExtractorConfig.prepare({
      configObjectFullPath: join(entry.dir, "api-extractor.json"),
      packageJsonFullPath: join(entry.dir, "package.json"),
      configObject: {
        projectFolder: entry.dir,
        mainEntryPointFilePath: entry.types,
        compiler: { tsconfigFilePath: join(entry.dir, "tsconfig.json") },
        apiReport: {
          enabled: true,
          reportFileName: `${entry.name}.api.md`,
          reportFolder: join(root, "api"),
          reportTempFolder: work,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // The report is the contract; missing release tags and doc-comment style are not.
          extractorMessageReporting: {
            default: { logLevel: "none" },
            "ae-missing-release-tag": { logLevel: "none" },
            "ae-forgotten-export": { logLevel: "none", addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: "none" } },
          compilerMessageReporting: { default: { logLevel: "warning" } },
        },
        newlineKind: "lf",
      },
    });
    const result = Extractor.invoke(config, { localBuild: update, messageCallback: quiet });
    if (result.apiReportChanged && !update) {
      console.error(`api: ${entry.name}: the public API changed (api/${entry.name}.api.md; diff below)`);
      const now = join(work, `${entry.name}.api.md`);
      spawnSync("git", ["diff", "--no-index", "--no-color", join(root, "api", `${entry.name}.api.md`), now], {
        stdio: ["ignore", "inherit", "inherit"],
      });
      failed++;
    } else if (!result.succeeded && !result.apiReportChanged) {
      console.error(`api: ${entry.name}: API Extractor failed (${result.errorCount} errors)`);
      failed++;
    } else {
      console.log(`api: ${entry.name}: ${result.apiReportChanged ? "report updated" : "unchanged"}`);
    }
    failed += augmentationReport(entry);
  }
  if (failed > 0 && !update) {
    console.error(
      "\napi: a changed public API is a deliberate act: keep the old name as a deprecated alias, run\n" +
        "`pnpm build && pnpm api:update`, commit api/*.api.md and add a line to CHANGELOG.md.",
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);

/**
 * API Extractor leaves module augmentations (`declare module "./x.js" { … }`)
 * out of its report (microsoft/rushstack#2264): an entry point's own
 * augmentations are kept beside it, verbatim, in api/<name>.augment.api.md.
 */
function augmentationReport(entry) {
  const text = readFileSync(entry.types, "utf8");
  const blocks = [];
  for (const match of text.matchAll(/^declare module "[^"]+" \{$/gm)) {
    let depth = 0;
    let end = match.index;
    for (let i = text.indexOf("{", match.index); i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    blocks.push(text.slice(match.index, end));
  }
  const file = join(root, "api", `${entry.name}.augment.api.md`);
  const want =
    blocks.length === 0
      ? undefined
      : `## API Report augmentations: ${entry.name}\n\n` +
        "Module augmentations the entry point's declarations make (API Extractor leaves them out of its report).\n\n" +
        `\`\`\`ts\n${blocks.join("\n\n")}\n\`\`\`\n`;
  const have = existsSync(file) ? readFileSync(file, "utf8") : undefined;
  if (want === have) return 0;
  if (update) {
    if (want === undefined) rmSync(file);
    else writeFileSync(file, want);
    console.log(`api: ${entry.name}: augmentations ${want === undefined ? "report removed" : "report updated"}`);
    return 0;
  }
  console.error(`api: ${entry.name}: its module augmentations changed (api/${entry.name}.augment.api.md)`);
  const now = join(work, `${entry.name}.augment.api.md`);
  writeFileSync(now, want ?? "");
  spawnSync("git", ["diff", "--no-index", "--no-color", have === undefined ? "/dev/null" : file, now], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  return 1;
}

// API Extractor prints its progress through this callback; keep errors and warnings only.
function quiet(message) {
  if (message.logLevel === "error" || message.logLevel === "warning") {
    if (message.messageId?.startsWith("console-api-report")) {
      return;
    }
    console.error(`api: ${message.text}`);
  }
  message.handled = true;
}
