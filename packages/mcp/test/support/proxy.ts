/**
 * Running the proxy as a user would: the built CLI as a real child process,
 * an official-SDK client on its stdio, a real MCP server behind it.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export const CLI = resolve(here, "../../../cli/bin/strictwire.js");
export const CHANGING_SERVER = resolve(here, "../fixtures/changing-server.mjs");
export const HOSTILE_SERVER = resolve(here, "../fixtures/hostile-server.mjs");
export const REMOTE_REF_SERVER = resolve(here, "../fixtures/remote-ref-server.mjs");

/** The entry point of an installed reference server (its package's bin). */
export function serverBin(
  pkg: "@modelcontextprotocol/server-everything" | "@modelcontextprotocol/server-filesystem",
): string {
  return resolve(dirname(require.resolve(`${pkg}/package.json`)), "dist/index.js");
}

export interface Connected {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** Everything the proxy (and the upstream) wrote on stderr so far. */
  readonly stderr: () => string;
  /** Resolves with the proxy's exit code once it has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * Start `strictwire mcp-proxy <flags> -- <upstream...>` and connect a client to it: one with `capabilities`, set
 * up by `setUp` (its handlers) before it connects.
 */
export async function connectProxy(
  flags: readonly string[],
  upstream: readonly string[] = [],
  client?: { capabilities: ClientCapabilities; setUp: (client: Client) => void },
): Promise<Connected> {
  const args = [CLI, "mcp-proxy", ...flags, ...(upstream.length > 0 ? ["--", ...upstream] : [])];
  return connect(process.execPath, args, undefined, client);
}

/** Connect a client straight to a server command (no proxy): the baseline. */
export async function connect(
  command: string,
  args: readonly string[],
  options?: RequestOptions,
  prepared?: { capabilities: ClientCapabilities; setUp: (client: Client) => void },
): Promise<Connected> {
  const transport = new StdioClientTransport({ command, args: [...args], stderr: "pipe" });
  const chunks: Buffer[] = [];
  transport.stderr?.on("data", (b: Buffer) => chunks.push(b));
  const client = new Client(
    { name: "strictwire-test", version: "0.0.0" },
    prepared === undefined ? undefined : { capabilities: prepared.capabilities },
  );
  prepared?.setUp(client);
  let exit: (code: number | null) => void = () => undefined;
  const exited = new Promise<number | null>((done) => {
    exit = done;
  });
  await client.connect(transport, options);
  // The SDK keeps the child private; its exit shows as the transport closing, with the code from the process.
  const child = (transport as unknown as { _process?: import("node:child_process").ChildProcess })._process;
  if (child === undefined) throw new Error("the stdio transport started no process");
  if (child.exitCode !== null) exit(child.exitCode);
  else child.once("exit", (code) => exit(code));
  return { client, transport, stderr: () => Buffer.concat(chunks).toString("utf8"), exited };
}

/** The upstream pid the proxy announces on stderr. */
export function upstreamPid(stderr: string): number {
  const match = /\(pid (\d+)\)/.exec(stderr);
  if (match?.[1] === undefined) throw new Error(`no upstream pid in: ${stderr}`);
  return Number(match[1]);
}

/** Whether a process of that pid is still running (signal 0 only asks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Wait until `predicate` holds, polling; fails after `ms`. */
export async function until(predicate: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > ms) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Run the CLI to its end with no client (stdin closed at once): for flag errors. */
export function runCli(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["pipe", "ignore", "pipe"] });
    const err: Buffer[] = [];
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", failed);
    child.on("close", (code) => done({ code, stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.end();
  });
}
