/**
 * Running the built CLI as a user would: a real child process, real files,
 * real pipes. Nothing here is a TTY, so no run may print colour.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../bin/strictwire.js");

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly stdin?: string | Uint8Array;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** The parent's environment without anything that would change colour or reach the network. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "OPENAI_API_KEY"].includes(k)) env[k] = v;
  }
  return env;
}

/** The built CLI in a real child process. */
export function strictwire(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return runNode([BIN, ...args], options);
}

/** `node <args>` in a real child process, as the CLI tests run the binary (and what it wrote). */
export function runNode(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...cleanEnv(), ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", failed);
    child.on("close", (code) =>
      done({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
    child.stdin.on("error", () => undefined); // a command that never reads stdin may close it first
    child.stdin.end(options.stdin ?? "");
  });
}

/** stdout as the one JSON document a --json run prints. */
export function jsonOf(run: Run): Record<string, unknown> {
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

export async function makeTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "strictwire-cli-"));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function writeJson(path: string, value: unknown): Promise<string> {
  await writeFile(path, JSON.stringify(value, null, 2));
  return path;
}

export async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
}

/** Every name in a directory, sorted: temp files left behind would show here. */
export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort();
}

export const ANSI = /\u001b\[/;

/** A stack trace line, which bad input must never produce. */
export const STACK = /\n\s+at .+\(.+:\d+:\d+\)/;

/** A small schema with the shapes worth testing: a relaxed keyword, an optional member, a map, a reference. */
export const SETTINGS = {
  type: "object",
  description: "Update account settings.",
  properties: {
    id: { type: "string", minLength: 3 },
    nickname: { type: ["string", "null"] },
    labels: { type: "object", additionalProperties: { type: "string" } },
    parent: { $ref: "#/$defs/node" },
  },
  required: ["id"],
  additionalProperties: false,
  $defs: { node: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
};

/** A value of SETTINGS. */
export const SETTINGS_VALUE = { id: "abc", nickname: null, labels: { team: "core" } };

/** A schema the compiler refuses: its reference leaves the document. */
export const REFUSED = {
  type: "object",
  properties: { owner: { $ref: "https://example.com/user.json" } },
};

export const ERROR_KEYS = ["code", "feedback", "message", "path"];
