import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The CLI tests spawn the built binary as a user would, so make sure the build
// is current. tsc -b is incremental: a no-op when nothing changed.
export default function setup(): void {
  // For a quick loop on library code: STRICTWIRE_SKIP_BUILD=1 skips it (the CLI tests then use the last build).
  if (process.env.STRICTWIRE_SKIP_BUILD === "1") return;
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = resolve(root, "node_modules/typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}
