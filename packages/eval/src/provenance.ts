/**
 * Where a result came from. Every results file and report carries this, so a
 * scripted server's figures can never pass for a model's: the endpoint's host
 * (never its path, credentials or the key), the API, the model, the date,
 * strictwire's version and commit, the suite's digest, the seed and the arms.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExchangeApiName } from "./providers.js";

export interface Provenance {
  readonly type: "run";
  /** When this invocation started (ISO 8601, UTC). */
  readonly date: string;
  readonly strictwire: { readonly version: string; readonly commit?: string };
  /** host[:port] only. */
  readonly endpointHost: string;
  /** The host is this machine (localhost, 127.0.0.0/8, ::1): whatever answers there is not a provider's model. */
  readonly loopback: boolean;
  readonly api: ExchangeApiName;
  /** The model name as sent in every request. */
  readonly model: string;
  readonly suite: { readonly digest: string; readonly scenarios: number };
  readonly seed: number;
  readonly repeat: number;
  readonly arms: readonly string[];
}

/** host[:port] of an endpoint URL: no scheme, credentials, path or query. */
export function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return "(not a URL)";
  }
}

export function isLoopback(host: string): boolean {
  const name = host
    .replace(/:\d+$/, "")
    .replace(/^\[|\]$/g, "")
    .toLowerCase();
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    name === "::1" ||
    name === "0.0.0.0" ||
    /^::ffff:127\./.test(name)
  );
}

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** This package's version, from its package.json. */
export function strictwireVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
}

const HEX = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;

/**
 * The commit of the strictwire checkout this package runs from, read from the
 * git files (no git process). Undefined for an installed package (its path has
 * a node_modules folder: a repository above it is the user's, not strictwire's)
 * and wherever the files do not say.
 */
export function strictwireCommit(from = PACKAGE_DIR): string | undefined {
  if (from.split(sep).includes("node_modules")) return undefined;
  try {
    let dir = from;
    for (let i = 0; i < 64; i++) {
      const dotGit = join(dir, ".git");
      const info = statOrUndefined(dotGit);
      if (info !== undefined) return headCommit(info.isDirectory() ? dotGit : gitDirOf(dotGit, dir));
      const up = dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
  } catch {
    // Unreadable git files: the commit is simply not known.
  }
  return undefined;
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** A worktree's `.git` is a file: "gitdir: <path>". */
function gitDirOf(file: string, base: string): string {
  const m = /^gitdir: (.+)$/m.exec(readFileSync(file, "utf8"));
  if (m === null) throw new Error("not a gitdir file");
  return resolve(base, (m[1] as string).trim());
}

function headCommit(gitDir: string): string | undefined {
  const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
  if (HEX.test(head)) return head;
  const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
  if (ref === undefined || ref.split("/").includes("..")) return undefined;
  // A worktree keeps its HEAD; refs live in the common directory.
  const common = statOrUndefined(join(gitDir, "commondir"))
    ? resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim())
    : gitDir;
  for (const dir of [gitDir, common]) {
    const loose = statOrUndefined(join(dir, ref)) ? readFileSync(join(dir, ref), "utf8").trim() : undefined;
    if (loose !== undefined && HEX.test(loose)) return loose;
  }
  const packed = statOrUndefined(join(common, "packed-refs")) ? readFileSync(join(common, "packed-refs"), "utf8") : "";
  for (const line of packed.split("\n")) {
    const [hash, name] = line.split(" ");
    if (name === ref && hash !== undefined && HEX.test(hash)) return hash;
  }
  return undefined;
}

/** One line of plain words: what produced these figures. */
export function provenanceLine(p: Provenance, answered: readonly string[]): string {
  const as =
    answered.length === 0
      ? "no model name in the answers"
      : answered.length === 1 && answered[0] === p.model
        ? "answered as the same"
        : `answered as ${answered.join(", ")}`;
  const commit = p.strictwire.commit !== undefined ? ` (commit ${p.strictwire.commit.slice(0, 12)})` : "";
  return (
    `model ${p.model} (${as}) via ${p.api} at ${p.endpointHost}, ${p.date}; ` +
    `strictwire ${p.strictwire.version}${commit}; suite ${p.suite.digest.slice(0, 19)} (${p.suite.scenarios} scenarios); ` +
    `seed ${p.seed}, repeat ${p.repeat}; arms ${p.arms.join(", ")}`
  );
}

/** Said first whenever the endpoint is this machine. */
export function loopbackWarning(p: Provenance): string | undefined {
  return p.loopback
    ? `NOT A MODEL'S RESULT: the endpoint ${p.endpointHost} is a loopback host on this machine (a scripted test server, a proxy or a local stand-in); these figures say what that host was made to answer, not what a provider's model does.`
    : undefined;
}
