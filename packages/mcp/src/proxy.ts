/**
 * The proxy: an MCP server towards its client that fronts an upstream MCP
 * server, both sides spoken by the official SDK. Tools are listed with their
 * strict wire schemas and their calls decoded before the upstream sees them;
 * everything else (resources, prompts, completions, logging, notifications)
 * is forwarded as it is, and what the upstream asks of a client (roots/list,
 * sampling/createMessage, elicitation/create) is asked of the proxy's client.
 */
import type { ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra, RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  ListRootsRequestSchema,
  ListToolsRequestSchema,
  type Notification,
  type ProgressToken,
  ResultSchema,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Result } from "@strictwire/codec";
import { MAX_TIMER_MS } from "@strictwire/codec/http";
import { argumentsTextOf, keepArgumentsText } from "./arguments-text.js";
import { type ProxiedTool, ToolCatalogue } from "./catalogue.js";
import { type CompileBudget, DEFAULT_COMPILE_BUDGET } from "./compile-pool.js";
import { ErrorLines } from "./error-lines.js";
import type { ListLimits } from "./listing.js";
import {
  CLIENT_TO_UPSTREAM,
  DEFAULT_MAX_NOTIFICATIONS_PER_SECOND,
  NotificationGate,
  UPSTREAM_TO_CLIENT,
} from "./notification-gate.js";
import type { StrictOptions } from "./tools.js";

export interface ProxyOptions extends StrictOptions {
  /** Where the upstream server is: a started-or-not client transport (stdio child, Streamable HTTP). */
  readonly upstream: Transport;
  /** Where the proxy's own client is (stdio for the CLI). */
  readonly downstream: Transport;
  /** One line at a time, for the operator (stderr in the CLI). */
  readonly log?: (line: string) => void;
  /** Limits on reading the upstream's tool list (defaults: DEFAULT_LIST_LIMITS). */
  readonly list?: Partial<ListLimits>;
  /** Each tool's compile budget and the worker count (defaults: DEFAULT_COMPILE_BUDGET). */
  readonly compile?: Partial<CompileBudget>;
  /**
   * Milliseconds the upstream may take to answer a forwarded request (tools/call and the rest) before the
   * client is answered with an error and the request is cancelled upstream. Default: none of the proxy's
   * own (a tool may rightly run long); the client's timeout, sent as a cancellation, ends the request.
   */
  readonly requestTimeoutMs?: number;
  /**
   * Milliseconds the upstream may take to answer `initialize` (default: DEFAULT_INIT_TIMEOUT_MS). Past it
   * startProxy returns an UpstreamInitError with the code `init-timeout`, and the upstream is closed.
   */
  readonly initTimeoutMs?: number;
  /**
   * Notifications forwarded at most this many a second each way, and at most this many waiting to be written:
   * the upstream's to the client (logs, progress, list changes, resource updates) and the client's to the
   * upstream (roots list changes and any other it sends), each way counted on its own. Past it they are dropped,
   * said once through `log` for each way, except list changes and resource updates, the last of each held for
   * the next second. Default: DEFAULT_MAX_NOTIFICATIONS_PER_SECOND.
   */
  readonly maxNotificationsPerSecond?: number;
  /**
   * The upstream's requests of the client passed on and not answered yet, at most this many at once of each kind
   * (roots/list, sampling/createMessage, elicitation/create): past it one is answered with an error at once, not
   * passed on, said once through `log`. A sampling or elicitation request may put a prompt before a person.
   * Default: DEFAULT_MAX_CLIENT_REQUESTS.
   */
  readonly maxClientRequests?: number;
}

/** The upstream's requests of the client of each kind waiting on it at once, by default (ProxyOptions.maxClientRequests). */
export const DEFAULT_MAX_CLIENT_REQUESTS = 8;

/**
 * The SDK's own request timeout, which bounded initialize before: a server started by `npx` may be
 * installed first, so the first answer can rightly take longer than a listing (DEFAULT_LIST_LIMITS).
 */
export const DEFAULT_INIT_TIMEOUT_MS = 60_000;

/** Why the upstream could not be reached: `init-timeout` past the deadline, `init-failed` for the rest. */
export type UpstreamInitErrorCode = "init-timeout" | "init-failed";

/** What startProxy returns when the upstream does not answer `initialize`; the upstream is closed then. */
export interface UpstreamInitError {
  /** What went wrong: past the deadline, or any other failure (the message says which). */
  readonly code: UpstreamInitErrorCode;
  /** The whole session's start, not a place in a message: always "". */
  readonly path: "";
  /** For the operator: what went wrong, and the limit when it was the deadline. */
  readonly message: string;
}

/** Which side ended the session. */
export type ClosedBy = "downstream" | "upstream";

export interface McpProxy {
  /** Settles once both sides are closed, with the side that closed first. */
  readonly closed: Promise<ClosedBy>;
  /** Settles once the upstream's tools were first listed and compiled (the proxy serves before that). */
  readonly ready: Promise<void>;
  /** The tools as the upstream lists them now, compiled or passed through. */
  readonly tools: () => readonly ProxiedTool[];
  close(): Promise<void>;
}

const VERSION = "0.1.0";

/**
 * Connect to the upstream, then serve the downstream at once: the tools are
 * listed and compiled in the background (off the event loop), so the client's
 * initialize, and a shutdown, never wait for them; tools/list and tools/call
 * do. An upstream that cannot be reached is an expected failure, returned as
 * an UpstreamInitError (the upstream closed), not thrown.
 */
export async function startProxy(options: ProxyOptions): Promise<Result<McpProxy, UpstreamInitError>> {
  const log = options.log ?? (() => undefined);
  // Roots, sampling and elicitation are the proxy's client's: the upstream asks the proxy, which asks its client
  // (askClient, set below). Declared and handled before initialize: an upstream may ask as soon as it
  // is initialized, before the proxy has a client at all, and offers some tools only to a client that declares
  // them (the proxy cannot know its client's yet: one that lacks one is refused when asked).
  const client = new Client(
    { name: "strictwire-mcp-proxy", version: VERSION },
    { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } } },
  );
  let askClient: Asker | undefined;
  const maxAsking = options.maxClientRequests ?? DEFAULT_MAX_CLIENT_REQUESTS;
  // Counted by kind: roots/list, answered by the client itself, is not held up by prompts a person has not read.
  const asking: Record<Asked, number> = { roots: 0, sampling: 0, elicitation: 0 };
  let saidBusy = false;
  const ask: Asker = async (capability, asked) => {
    // An upstream asking in a loop would put prompt after prompt before the client's person, and fill the proxy.
    if (asking[capability] >= maxAsking) {
      if (!saidBusy) {
        saidBusy = true;
        log(
          `the upstream asks the client more than ${maxAsking} things of a kind at once (the limit): the rest are refused`,
        );
      }
      throw answerError(
        ErrorCode.InternalError,
        `the proxy's client has ${maxAsking} ${capability} requests from this server unanswered (the limit): refused, ask again once one is answered`,
      );
    }
    asking[capability]++;
    try {
      return await (askClient ?? notConnected)(capability, asked);
    } finally {
      asking[capability]--;
    }
  };
  client.setRequestHandler(ListRootsRequestSchema, (request, extra) =>
    ask("roots", (server) => server.listRoots(request.params, { signal: extra.signal })),
  );
  // The client's answer may take a person's time: no deadline of the proxy's own (the upstream's request has its
  // own, and its cancellation aborts this one through the signal).
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
    ask("sampling", (server) => server.createMessage(request.params, { signal: extra.signal, timeout: MAX_TIMER_MS })),
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    ask("elicitation", (server) => {
      if (request.params.mode === "url" && server.getClientCapabilities()?.elicitation?.url === undefined)
        throw answerError(ErrorCode.MethodNotFound, "the proxy's client does not support URL elicitation");
      // As sent: the client validates its answer, the upstream what it gets.
      return server.request({ method: "elicitation/create", params: request.params }, ElicitResultSchema, {
        signal: extra.signal,
        timeout: MAX_TIMER_MS,
      });
    }),
  );
  const failed = await initialize(client, ending(options.upstream), options.initTimeoutMs ?? DEFAULT_INIT_TIMEOUT_MS);
  if (failed !== undefined) return { ok: false, error: failed };

  const upstreamInfo = client.getServerVersion();
  const upstreamCaps = client.getServerCapabilities() ?? {};
  const strict: StrictOptions = {
    ...(options.target !== undefined ? { target: options.target } : {}),
    ...(options.presence !== undefined ? { presence: options.presence } : {}),
  };
  const catalogue = new ToolCatalogue(client, {
    strict,
    list: options.list ?? {},
    budget: { ...DEFAULT_COMPILE_BUDGET, ...options.compile },
    log,
  });

  const instructions = client.getInstructions();
  const server = new Server(
    { name: `strictwire(${upstreamInfo?.name ?? "upstream"})`, version: upstreamInfo?.version ?? VERSION },
    { capabilities: mirroredCapabilities(upstreamCaps), ...(instructions !== undefined ? { instructions } : {}) },
  );

  const upstreamName = JSON.stringify((upstreamInfo?.name ?? "upstream").slice(0, 80));
  const limit = options.requestTimeoutMs;
  let first: ClosedBy | undefined;
  const perSecond = options.maxNotificationsPerSecond ?? DEFAULT_MAX_NOTIFICATIONS_PER_SECOND;
  const notices = new NotificationGate(perSecond, log, UPSTREAM_TO_CLIENT);
  // The client's own, on their way up: a client flooding them would flood the upstream, and fill the proxy.
  const clientNotices = new NotificationGate(perSecond, log, CLIENT_TO_UPSTREAM);
  const upstream = (method: string): Forwarding => ({
    notices,
    deadline:
      limit === undefined
        ? undefined
        : {
            ms: limit,
            message: `the upstream server ${upstreamName} did not answer ${method.slice(0, 80)} within ${limit} ms (the limit); the request was cancelled upstream`,
          },
    gone: () =>
      first === "upstream"
        ? `the upstream server ${upstreamName} is gone: it closed before answering ${method.slice(0, 80)}`
        : undefined,
  });

  askClient = (capability, asked) => {
    const capabilities = server.getClientCapabilities();
    if (capabilities === undefined) return notConnected(capability, asked);
    if (capabilities[capability] === undefined) throw answerError(ErrorCode.MethodNotFound, LACKS[capability]);
    return asked(server);
  };
  // An upstream that asked before the client came was told to wait for this.
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots === undefined) return;
    client
      .sendRootsListChanged()
      .catch((error: unknown) => log(`could not tell the upstream of the roots: ${why(error)}`));
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await catalogue.listed() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const proxied = await catalogue.find(name);
    const token = request.params._meta?.progressToken;
    if (proxied?.kind === "strict") {
      // The text as the client sent it where the transport kept it (a __proto__ member included), else rewritten.
      const text = argumentsTextOf(extra) ?? JSON.stringify(request.params.arguments ?? {});
      const decoded = await catalogue.decode(proxied, text);
      // A refusal is the model's to fix: it gets the feedback and the upstream never sees the call.
      if (!decoded.ok) return refusal(decoded.error.feedback);
      const params = { ...request.params, arguments: decoded.value };
      return forward(token, extra, upstream("tools/call"), (o) =>
        client.request({ method: "tools/call", params }, CallToolResultSchema, o),
      );
    }
    // Not compiled (or unknown here): the upstream judges the call as it always would.
    return forward(token, extra, upstream("tools/call"), (o) =>
      client.request({ method: "tools/call", params: request.params }, CallToolResultSchema, o),
    );
  });
  // Every other request goes upstream as it came, answered with what came back.
  server.fallbackRequestHandler = (request, extra) =>
    forward(request.params?._meta?.progressToken, extra, upstream(request.method), (o) =>
      client.request(
        { method: request.method, ...(request.params !== undefined ? { params: request.params } : {}) },
        ResultSchema,
        o,
      ),
    );

  // A storm of notifications costs at most one listing in progress and one after it, each announced once.
  catalogue.onAnnounce = () =>
    void server
      .sendToolListChanged()
      .catch((error: unknown) => log(`could not forward tools/list_changed: ${why(error)}`));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    void catalogue.refresh(true);
  });
  client.fallbackNotificationHandler = async (notification: Notification) =>
    notices.pass(notification, (passed) =>
      server.notification(passed).catch((error: unknown) => log(`could not forward ${passed.method}: ${why(error)}`)),
    );
  // Cancellations and progress never get here: the SDK takes them (a cancellation follows its request upstream).
  server.fallbackNotificationHandler = async (notification: Notification) =>
    clientNotices.pass(notification, (passed) =>
      client.notification(passed).catch((error: unknown) => log(`could not forward ${passed.method}: ${why(error)}`)),
    );

  // Bounded: a side can make the SDK report an error for every message it sends.
  const upstreamErrors = new ErrorLines(log);
  const downstreamErrors = new ErrorLines(log);
  let settle: (by: ClosedBy) => void = () => undefined;
  const closed = new Promise<ClosedBy>((resolve) => {
    settle = resolve;
  });
  const end = (by: ClosedBy): void => {
    if (first !== undefined) return;
    first = by;
    upstreamErrors.flush();
    downstreamErrors.flush();
    if (by === "upstream") log("the upstream server closed; closing the proxy");
    catalogue.close();
    notices.close();
    clientNotices.close();
    // The other side is closed on the next turn, so error answers to calls in flight are written first.
    setImmediate(() => {
      const other = by === "upstream" ? server.close() : client.close();
      other.catch(() => undefined).finally(() => settle(by));
    });
  };
  client.onclose = () => end("upstream");
  server.onclose = () => end("downstream");
  client.onerror = (error) => upstreamErrors.write(`upstream: ${why(error)}`);
  server.onerror = (error) => downstreamErrors.write(`downstream: ${why(error)}`);

  await server.connect(keepArgumentsText(answering(options.downstream)));
  const ready = catalogue.refresh();
  const proxy: McpProxy = {
    closed,
    ready,
    tools: () => catalogue.all(),
    close: async () => {
      end("downstream");
      await closed;
      // Closed from here rather than by its client: the downstream transport is still open.
      await server.close().catch(() => undefined);
    },
  };
  return { ok: true, value: proxy };
}

/**
 * Connect to the upstream within `ms`: the deadline cancels initialize, not the SDK's own request timeout.
 * Undefined once connected, else why not.
 */
async function initialize(client: Client, upstream: Transport, ms: number): Promise<UpstreamInitError | undefined> {
  const expiry = new AbortController();
  const timer = setTimeout(() => expiry.abort(), Math.min(ms, MAX_TIMER_MS));
  try {
    // A failed initialize closes the client, and with it the upstream (the child is shut down).
    await client.connect(upstream, { signal: expiry.signal, timeout: MAX_TIMER_MS });
    return undefined;
  } catch (error) {
    if (expiry.signal.aborted)
      return {
        code: "init-timeout",
        path: "",
        message: `the upstream server did not answer initialize within ${ms} ms (the limit)`,
      };
    return { code: "init-failed", path: "", message: `initialize failed: ${why(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The downstream transport, never leaving a request unanswered because its
 * answer cannot be written: an upstream's result or error may nest deeper than
 * JSON.stringify can follow (JSON.parse reads any depth), and the SDK would
 * only log the failed send, the client waiting until its own timeout. Such a
 * request is answered with an error instead.
 */
function answering(inner: Transport): Transport {
  return relayed(inner, {
    send: async (message, sendOptions) => {
      try {
        await inner.send(message, sendOptions);
      } catch (error) {
        // Only an answer (a request's id, no method) whose text cannot be written; any other failure stands.
        if (!("id" in message) || "method" in message || writable(message)) throw error;
        const text = `the answer could not be written as JSON: ${why(error)}`;
        await inner.send(
          { jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InternalError, message: text } },
          sendOptions,
        );
      }
    },
  });
}

/**
 * The upstream transport, closed when a stdio child's output ends. The SDK's
 * stdio transport closes only once the process has exited, so a server that
 * closed its stdout and lived on left every request pending for good. Its end
 * is taken as the exit is: the requests in flight are answered with errors,
 * the proxy closes, and the child is shut down (stdin ended, then SIGTERM, SIGKILL).
 */
function ending(inner: Transport): Transport {
  let ended = false;
  const outer = relayed(inner, {
    onclose: () => {
      if (ended) return;
      ended = true;
      outer.onclose?.();
    },
    started: () => {
      if (!(inner instanceof StdioClientTransport)) return;
      // The SDK keeps the child private; without it (another SDK version) only the exit is seen, as before.
      const child = (inner as unknown as { _process?: ChildProcess })._process;
      child?.stdout?.once("close", () => {
        inner.onclose?.();
        void inner.close().catch(() => undefined);
      });
    },
  });
  return outer;
}

/** A transport that relays to `inner`, with the hooks given: what the proxy's transport wrappers share. */
function relayed(
  inner: Transport,
  hooks: { send?: Transport["send"]; onclose?: () => void; started?: () => void },
): Transport {
  const outer: Transport = {
    start: async () => {
      inner.onclose = hooks.onclose ?? (() => outer.onclose?.());
      inner.onerror = (error) => outer.onerror?.(error);
      inner.onmessage = (message, extra) => outer.onmessage?.(message, extra);
      await inner.start();
      hooks.started?.();
    },
    send: hooks.send ?? ((message, sendOptions) => inner.send(message, sendOptions)),
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  return outer;
}

function writable(message: unknown): boolean {
  try {
    JSON.stringify(message);
    return true;
  } catch {
    return false;
  }
}

/** The upstream's capabilities the proxy can honour; tools always, so it can announce recompiled lists. */
function mirroredCapabilities(upstream: ServerCapabilities): ServerCapabilities {
  const { resources, prompts, logging, completions } = upstream;
  return {
    tools: { listChanged: true },
    ...(resources !== undefined ? { resources } : {}),
    ...(prompts !== undefined ? { prompts } : {}),
    ...(logging !== undefined ? { logging } : {}),
    ...(completions !== undefined ? { completions } : {}),
  };
}

type HandlerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The proxy's own deadline on a forwarded request, and what the client is told past it. */
interface Deadline {
  readonly ms: number;
  readonly message: string;
}

/** What a forwarded request may meet upstream, and what the client is told then. */
interface Forwarding {
  readonly deadline: Deadline | undefined;
  /** Progress comes back through it, within the rate of the upstream's other notifications. */
  readonly notices: NotificationGate;
  /** Once the upstream has closed (exited, or ended its output): what the client is told. */
  readonly gone: () => string | undefined;
}

/**
 * Send a request upstream on behalf of the client. Cancellation follows it;
 * progress comes back under the client's own token, and every progress
 * notification is written before the answer, which ends the client's interest in them.
 */
async function forward<R>(
  token: ProgressToken | undefined,
  extra: HandlerExtra,
  upstream: Forwarding,
  send: (options: RequestOptions) => Promise<R>,
): Promise<R> {
  const { deadline } = upstream;
  // Without a deadline of the proxy's own, its client's timeout, sent as a cancellation, ends the request.
  const expiry = new AbortController();
  const timer =
    deadline === undefined ? undefined : setTimeout(() => expiry.abort(), Math.min(deadline.ms, MAX_TIMER_MS));
  const signal = timer === undefined ? extra.signal : AbortSignal.any([extra.signal, expiry.signal]);
  const options: RequestOptions = { signal, timeout: MAX_TIMER_MS };
  try {
    if (token === undefined) return await send(options);
    let progressSent: Promise<void> = Promise.resolve();
    const answer = await send({
      ...options,
      onprogress: (progress) => {
        const notification = {
          method: "notifications/progress",
          params: { ...progress, progressToken: token },
        } as const;
        upstream.notices.pass(notification, () => {
          progressSent = progressSent.then(() => extra.sendNotification(notification)).catch(() => undefined);
          return progressSent;
        });
      },
    });
    await progressSent;
    return answer;
  } catch (error) {
    // Past the deadline (not cancelled by the client): the client is answered, the upstream was sent a cancellation.
    if (deadline !== undefined && expiry.signal.aborted && !extra.signal.aborted)
      throw answerError(ErrorCode.RequestTimeout, deadline.message);
    // The SDK's "Connection closed" (or "Not connected", for one sent after) does not say which side went.
    const gone = upstream.gone();
    if (gone !== undefined) throw answerError(ErrorCode.ConnectionClosed, gone);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** What the upstream may ask of the proxy's client: roots/list, sampling/createMessage, elicitation/create. */
type Asked = "roots" | "sampling" | "elicitation";

/** Asks the proxy's client for the upstream, if the client declares `capability`. */
type Asker = <R>(capability: Asked, asked: (server: Server) => Promise<R>) => Promise<R>;

/** The upstream's answer when the proxy's client does not declare what it asks. */
const LACKS: Readonly<Record<Asked, string>> = {
  roots: "the proxy's client does not list roots",
  sampling: "the proxy's client does not support sampling",
  elicitation: "the proxy's client does not support elicitation",
};

/**
 * Asked before the proxy's client has initialized. For roots, the upstream is sent
 * notifications/roots/list_changed once it has.
 */
async function notConnected<R>(capability: Asked, _asked: unknown): Promise<R> {
  throw answerError(
    ErrorCode.InternalError,
    capability === "roots"
      ? "the proxy's client has not connected yet: notifications/roots/list_changed follows once it has, if it lists roots"
      : `the proxy's client has not connected yet: no ${capability} before it has`,
  );
}

/**
 * An error a request is answered with, its message as written: an Error with a code, where the SDK would send an
 * McpError's message with its "MCP error <code>: " prefix, which the asking side prefixes again.
 */
function answerError(code: ErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function refusal(feedback: string): CallToolResult {
  return { content: [{ type: "text", text: feedback }], isError: true };
}

function why(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
