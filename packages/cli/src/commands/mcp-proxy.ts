/**
 * mcp-proxy: serve an MCP client over this process's stdio, fronting an
 * upstream MCP server (a child process, or a Streamable HTTP endpoint with
 * --url) whose tools are listed with strict wire schemas and whose calls are
 * decoded first. stdin/stdout carry the protocol, so everything this command
 * says goes to stderr. Exit 0 when the client closed the session, 2 when the
 * upstream could not be reached or went away first.
 */
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { AbsenceSpelling, TargetName } from "@strictwire/codec";
import { MAX_TIMER_MS } from "@strictwire/codec/http";
import { printable } from "@strictwire/codec/printable";
import {
  answeredFetch,
  boundedFetch,
  type CompileBudget,
  type ListLimits,
  type ProxyOptions,
  startProxy,
} from "@strictwire/mcp";
import { EXIT_OK, EXIT_USAGE, type ExitCode } from "../failure.js";
import { type Io, stdoutCarriesSession } from "../io.js";
import { type Bound, optionalNumberFlag } from "../number-flag.js";
import { PROGRAM } from "../report.js";

export interface McpProxyFlags {
  readonly target?: TargetName;
  readonly presence?: AbsenceSpelling;
  readonly url?: string;
  readonly maxPages?: string;
  readonly maxTools?: string;
  readonly maxListBytes?: string;
  readonly listTimeout?: string;
  readonly requestTimeout?: string;
  readonly initTimeout?: string;
  readonly maxNotifications?: string;
  readonly maxClientRequests?: string;
  readonly compileTimeout?: string;
  readonly maxSchemaBytes?: string;
  readonly compileWorkers?: string;
  readonly decodeTimeout?: string;
  readonly compileMemory?: string;
  readonly maxMessageBytes?: string;
}

export async function runMcpProxy(command: readonly string[], flags: McpProxyFlags, io: Io): Promise<ExitCode> {
  // The upstream names tools and servers and words its errors: untrusted text, shown to the operator's terminal.
  const say = (line: string): void => io.stderr.write(`${PROGRAM}: mcp-proxy: ${printable(line)}\n`);
  stdoutCarriesSession();
  const limits = budgetFlags(flags);
  if (typeof limits === "string") {
    say(limits);
    return EXIT_USAGE;
  }
  const maxMessageBytes = optionalNumberFlag("--max-message-bytes", flags.maxMessageBytes, POSITIVE);
  if (!maxMessageBytes.ok) {
    say(maxMessageBytes.error.error.message);
    return EXIT_USAGE;
  }
  // An upstream message over the bound ends the session: the server is not one to wait on.
  const refused = (message: string): void => {
    say(message);
    if (typeof upstream !== "string") void upstream.transport.close().catch(() => undefined);
  };
  const upstream = upstreamTransport(command, flags, io.env, {
    maxMessageBytes: maxMessageBytes.value,
    onRefused: refused,
  });
  if (typeof upstream === "string") {
    say(upstream);
    return EXIT_USAGE;
  }

  const unreachable = async (reason: string): Promise<ExitCode> => {
    say(`cannot reach the upstream server ${upstream.label}: ${reason}`);
    await upstream.transport.close().catch(() => undefined);
    return EXIT_USAGE;
  };
  let started: Awaited<ReturnType<typeof startProxy>>;
  try {
    started = await startProxy({
      upstream: upstream.transport,
      downstream: new StdioServerTransport(),
      ...(flags.target !== undefined ? { target: flags.target } : {}),
      ...(flags.presence !== undefined ? { presence: flags.presence } : {}),
      ...limits,
      log: say,
    });
  } catch (error) {
    // startProxy returns its expected failures; a throw is a bug, still reported (and the upstream closed).
    return unreachable(error instanceof Error ? error.message : String(error));
  }
  if (!started.ok) return unreachable(`${started.error.code}: ${started.error.message}`);
  const proxy = started.value;
  const pid = upstream.transport instanceof StdioClientTransport ? upstream.transport.pid : null;
  say(`serving ${upstream.label}${pid !== null ? ` (pid ${pid})` : ""}`);
  // The stdio server transport does not watch for the end of its input: a client that went away closes the session.
  process.stdin.once("end", () => void proxy.close());
  void proxy.ready.then(() => {
    const strict = proxy.tools().filter((t) => t.kind === "strict").length;
    say(`${strict} of ${proxy.tools().length} tools strict for ${flags.target ?? "openai"}`);
  });
  const by = await proxy.closed;
  return by === "downstream" ? EXIT_OK : EXIT_USAGE;
}

/** The listing limits, compile budget, request deadlines and notification rate the flags set; the defaults are the library's. */
function budgetFlags(
  flags: McpProxyFlags,
):
  | Pick<
      ProxyOptions,
      "list" | "compile" | "requestTimeoutMs" | "initTimeoutMs" | "maxNotificationsPerSecond" | "maxClientRequests"
    >
  | string {
  const list: { -readonly [K in keyof ListLimits]?: number } = {};
  const compile: { -readonly [K in keyof CompileBudget]?: number } = {};
  const forwarded: {
    requestTimeoutMs?: number;
    initTimeoutMs?: number;
    maxNotificationsPerSecond?: number;
    maxClientRequests?: number;
  } = {};
  // A timer over MAX_TIMER_MS fires at once; each worker is a thread with its own heap.
  const read: [string, string | undefined, (n: number) => void, number?][] = [
    ["--max-pages", flags.maxPages, (n) => (list.maxPages = n)],
    ["--max-tools", flags.maxTools, (n) => (list.maxTools = n)],
    ["--max-list-bytes", flags.maxListBytes, (n) => (list.maxBytes = n)],
    ["--list-timeout", flags.listTimeout, (n) => (list.timeoutMs = n), MAX_TIMER_MS],
    ["--request-timeout", flags.requestTimeout, (n) => (forwarded.requestTimeoutMs = n), MAX_TIMER_MS],
    ["--init-timeout", flags.initTimeout, (n) => (forwarded.initTimeoutMs = n), MAX_TIMER_MS],
    ["--max-notifications", flags.maxNotifications, (n) => (forwarded.maxNotificationsPerSecond = n)],
    ["--max-client-requests", flags.maxClientRequests, (n) => (forwarded.maxClientRequests = n)],
    ["--compile-timeout", flags.compileTimeout, (n) => (compile.timeoutMs = n), MAX_TIMER_MS],
    ["--max-schema-bytes", flags.maxSchemaBytes, (n) => (compile.maxSchemaBytes = n)],
    ["--compile-workers", flags.compileWorkers, (n) => (compile.workers = n), MAX_COMPILE_WORKERS],
    ["--decode-timeout", flags.decodeTimeout, (n) => (compile.decodeTimeoutMs = n), MAX_TIMER_MS],
    ["--compile-memory", flags.compileMemory, (n) => (compile.memoryMb = n)],
  ];
  for (const [name, text, set, max] of read) {
    const value = optionalNumberFlag(name, text, max === undefined ? POSITIVE : { ...POSITIVE, max });
    if (!value.ok) return value.error.error.message;
    if (value.value !== undefined) set(value.value);
  }
  return { list, compile, ...forwarded };
}

const MAX_COMPILE_WORKERS = 64;

const POSITIVE: Bound = { min: 1, integer: true };

interface Upstream {
  readonly transport: Transport;
  readonly label: string;
}

/** The transport to the upstream server, or what is wrong with the flags. */
function upstreamTransport(
  command: readonly string[],
  flags: McpProxyFlags,
  env: Readonly<Record<string, string | undefined>>,
  bound: { maxMessageBytes: number | undefined; onRefused: (message: string) => void },
): Upstream | string {
  if (flags.url !== undefined) {
    if (command.length > 0) return "give either --url or a command after --, not both";
    let url: URL;
    try {
      url = new URL(flags.url);
    } catch {
      return `--url ${JSON.stringify(flags.url)} is not a URL`;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return `--url must be http: or https:, not ${url.protocol}`;
    // Bounded first, so what answeredFetch reads of an event is within the bound too.
    const fetch = answeredFetch(
      boundedFetch({
        ...(bound.maxMessageBytes !== undefined ? { maxMessageBytes: bound.maxMessageBytes } : {}),
        onRefused: bound.onRefused,
      }),
    );
    return { transport: new StreamableHTTPClientTransport(url, { fetch }), label: url.href };
  }
  const [program, ...args] = command;
  if (program === undefined)
    return `give the upstream server's command after --, or --url (e.g. ${PROGRAM} mcp-proxy -- npx @modelcontextprotocol/server-filesystem /tmp)`;
  // The child gets this process's whole environment (the SDK's default passes only a few variables), and its stderr is ours.
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  return {
    transport: new StdioClientTransport({ command: program, args, env: childEnv, stderr: "inherit" }),
    label: [program, ...args].join(" "),
  };
}
