import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The CLI tests spawn the built binary as a user would, so make sure the build
// is current. tsc -b is incremental: a no-op when nothing changed.
export default function setup(): void {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = resolve(root, "node_modules/typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}
