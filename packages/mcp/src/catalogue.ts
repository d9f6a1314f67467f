/**
 * The proxy's view of the upstream's tools: listed within limits, compiled in
 * the pool within budgets, cached by a digest of what each is compiled from
 * (so a tools/list_changed compiles only what changed), each pass-through
 * reported once. Listings never overlap: notifications that arrive during one
 * are answered by a single listing after it.
 */
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { CodecError, Result } from "@strictwire/codec";
import { type CompileBudget, type Compiled, CompilePool } from "./compile-pool.js";
import { describeStop, type ListLimits, listAllTools } from "./listing.js";
import { codecName, describePassThrough, type StrictOptions } from "./tools.js";

/** One upstream tool as the proxy serves it: strict with its wire schema, or passed through with the reason. */
export type ProxiedTool =
  | { readonly kind: "strict"; readonly tool: Tool; readonly wire: unknown; readonly key: string }
  | { readonly kind: "pass-through"; readonly tool: Tool; readonly reason: CodecError };

export interface CatalogueOptions {
  readonly strict: StrictOptions;
  readonly list: Partial<ListLimits>;
  readonly budget: CompileBudget;
  readonly log: (line: string) => void;
}

interface Waiter {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

export class ToolCatalogue {
  /** Called after a listing asked for by a tools/list_changed has completed. */
  onAnnounce: () => void = () => undefined;
  private byName = new Map<string, ProxiedTool>();
  private readonly cache = new Map<string, Promise<Compiled>>();
  private readonly reported = new Set<string>();
  private readonly pool: CompilePool;
  /** Settled by the end of the next listing to start. */
  private next: Waiter | undefined;
  private announce = false;
  private running = false;
  private closed = false;
  private first: Promise<void> | undefined;
  private listings = 0;

  constructor(
    private readonly client: Client,
    private readonly options: CatalogueOptions,
  ) {
    this.pool = new CompilePool(options.budget);
  }

  all(): ProxiedTool[] {
    return [...this.byName.values()];
  }

  /** The tools as listed to the client: once the first listing is done, the latest completed one. */
  async listed(): Promise<Tool[]> {
    await (this.first ?? this.refresh());
    if (this.closed) throw new McpError(ErrorCode.ConnectionClosed, "the proxy is closing");
    return this.all().map((t) =>
      t.kind === "strict" ? { ...t.tool, inputSchema: t.wire as Tool["inputSchema"] } : t.tool,
    );
  }

  /** A tool by name; a name not known yet waits for one fresh listing (the upstream may have added it). */
  async find(name: string): Promise<ProxiedTool | undefined> {
    await (this.first ?? this.refresh());
    if (!this.byName.has(name)) await this.refresh();
    return this.byName.get(name);
  }

  /**
   * Decode a call for a strict tool. Its codec is compiled again if the worker
   * that held it was stopped; if a listing replaced the tool meanwhile (its codec
   * let go), the call is decoded with the tool as now listed, never the old one.
   */
  async decode(proxied: ProxiedTool & { kind: "strict" }, text: string): Promise<Result<Record<string, unknown>>> {
    const name = JSON.stringify(proxied.tool.name);
    let current: ProxiedTool & { kind: "strict" } = proxied;
    for (let attempt = 0; attempt < 3; attempt++) {
      const decoded = await this.pool.decode(current.key, text);
      if (decoded !== "lost") return decoded;
      // The workers stop with the proxy (an upstream gone): a closing proxy answers nothing more.
      if (this.closed) throw new McpError(ErrorCode.ConnectionClosed, "the proxy is closing");
      const listed = this.byName.get(proxied.tool.name);
      if (listed === undefined) return refused("invalid-value", `the upstream no longer lists the tool ${name}`);
      if (listed.kind !== "strict")
        return refused(
          "invalid-value",
          `the upstream changed the tool ${name}, which is no longer strict: list the tools again`,
        );
      if (listed.key !== current.key) {
        // Changed since the call found it: the tool as listed now is the contract.
        current = listed;
        continue;
      }
      // Unchanged, its codec was on a stopped worker: compiled again on a live one.
      const again = await this.compile(current.key, current.tool, true);
      if (again.kind !== "strict") break;
    }
    return refused("schema-too-large", "the tool's codec could not be compiled again");
  }

  /** Ask for a listing; settles when one that started after this call has completed. Never rejects. */
  refresh(announce = false): Promise<void> {
    if (announce) this.announce = true;
    if (this.next === undefined) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.next = { promise, resolve };
    }
    const done = this.next.promise;
    this.first ??= done;
    if (!this.running) void this.run();
    return done;
  }

  close(): void {
    this.closed = true;
    this.pool.close();
    this.next?.resolve();
    this.next = undefined;
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.next !== undefined && !this.closed) {
      const waiter = this.next;
      this.next = undefined;
      const announce = this.announce;
      this.announce = false;
      try {
        await this.load();
      } catch (error) {
        this.options.log(
          `listing the upstream's tools failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      waiter.resolve();
      if (announce && !this.closed) this.onAnnounce();
    }
    this.running = false;
  }

  private async load(): Promise<void> {
    if (this.client.getServerCapabilities()?.tools === undefined) return;
    const listing = await listAllTools(this.client, this.options.list);
    if (this.closed) return;
    if (listing.stopped !== undefined) {
      this.options.log(describeStop(listing.stopped, listing.tools.length));
      // Nothing read at all (the upstream failed at once): the previous list stays.
      if (listing.tools.length === 0) return;
    }
    const keys = new Map<string, Tool>();
    let compiled = 0;
    const jobs: Promise<{ tool: Tool; key: string; compiled: Compiled }>[] = [];
    for (const [i, tool] of listing.tools.entries()) {
      // Digests and job hand-offs of a long list are split so that other requests are answered in between.
      if (i % 100 === 99) await new Promise<void>((next) => setImmediate(next));
      const key = this.keyOf(tool);
      keys.set(key.digest, tool);
      if (!this.cache.has(key.digest)) compiled++;
      jobs.push(this.compile(key.digest, tool, false, key.bytes).then((c) => ({ tool, key: key.digest, compiled: c })));
    }
    const outcomes = await Promise.all(jobs);
    if (this.listings++ > 0) {
      this.options.log(
        `relisted ${outcomes.length} tools: ${compiled} compiled, ${outcomes.length - compiled} unchanged`,
      );
    }
    if (this.closed) return;
    const next = new Map<string, ProxiedTool>();
    for (const { tool, key, compiled } of outcomes) {
      const proxied: ProxiedTool =
        compiled.kind === "strict"
          ? { kind: "strict", tool, wire: compiled.wire, key }
          : { kind: "pass-through", tool, reason: compiled.reason };
      if (proxied.kind === "pass-through" && !this.reported.has(tool.name)) {
        this.reported.add(tool.name);
        this.options.log(describePassThrough(proxied));
      }
      next.set(tool.name, proxied);
    }
    this.byName = next;
    // Codecs of tools no longer listed are let go, in the workers too.
    for (const key of [...this.cache.keys()]) {
      if (keys.has(key)) continue;
      this.cache.delete(key);
      this.pool.release(key);
    }
  }

  /** A tool's compile, shared by every listing that has the same tool (same digest). */
  private compile(key: string, tool: Tool, fresh: boolean, bytes?: number): Promise<Compiled> {
    const cached = this.cache.get(key);
    if (cached !== undefined && !fresh) return cached;
    const size = bytes ?? Buffer.byteLength(JSON.stringify(tool.inputSchema));
    const compiled = this.pool.compile(key, tool, this.options.strict, size);
    this.cache.set(key, compiled);
    return compiled;
  }

  /** The digest of everything a codec is compiled from: the schema, the name and description it carries, the options. */
  private keyOf(tool: Tool): { digest: string; bytes: number } {
    const schema = JSON.stringify(tool.inputSchema);
    const { target, presence } = this.options.strict;
    const digest = createHash("sha256")
      .update(JSON.stringify([codecName(tool.name), tool.description ?? null, target ?? null, presence ?? null]))
      .update("\n")
      .update(schema)
      .digest("hex");
    return { digest, bytes: Buffer.byteLength(schema) };
  }
}

function refused(code: CodecError["code"], why: string): Result<Record<string, unknown>> {
  const message = `strictwire could not check these arguments: ${why}`;
  return { ok: false, error: { code, path: "", message, feedback: message } };
}
