/**
 * Upstream tools compiled off the proxy's event loop, each within a time and
 * a size budget, in worker threads that keep the codecs and decode the calls.
 * A compile over its time budget is stopped by terminating its worker (a
 * synchronous ajv compile cannot be interrupted any other way); the tool
 * passes through, and the codecs that worker held are compiled again, on a
 * live one, when a call needs them.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { CodecError, Result } from "@strictwire/codec";
import type { Job, WorkerReply, WorkerRequest } from "./compile-messages.js";
import type { StrictOptions } from "./tools.js";

export interface CompileBudget {
  /** Milliseconds one tool's compile may take; over it the tool passes through. */
  readonly timeoutMs: number;
  /** UTF-8 bytes of one tool's input schema as JSON; over it the tool passes through without a compile. */
  readonly maxSchemaBytes: number;
  /** Worker threads compiling (and decoding) at once. */
  readonly workers: number;
}

export const DEFAULT_COMPILE_BUDGET: CompileBudget = {
  timeoutMs: 10_000,
  maxSchemaBytes: 1_048_576,
  workers: Math.max(1, Math.min(4, availableParallelism())),
};

/** A compile's outcome: the wire schema (the codec stays in its worker), or why the tool passes through. */
export type Compiled =
  | { readonly kind: "strict"; readonly wire: unknown }
  | { readonly kind: "pass-through"; readonly reason: CodecError };

/** A decode's outcome; "lost" when no live worker holds the codec (compile it again). */
export type Decoded = Result<Record<string, unknown>> | "lost";

/** One worker thread, the replies it owes, and its compiles in line (one runs at a time, so its budget is its own). */
class Slot {
  readonly worker: Worker;
  readonly pending = new Map<number, (reply: WorkerReply | "lost") => void>();
  tail: Promise<unknown> = Promise.resolve();
  load = 0;
  dead = false;
  /** Settles once the worker has loaded the codec and warmed ajv up (or died). */
  readonly ready: Promise<void>;
  private started: () => void = () => undefined;

  constructor(url: URL) {
    this.ready = new Promise((done) => {
      this.started = done;
    });
    this.worker = new Worker(url);
    this.worker.on("message", (reply: WorkerReply) => {
      if (reply.kind === "ready") return this.started();
      const resolve = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      resolve?.(reply);
    });
    // A worker that fails or exits ends like a terminated one: whatever it held is lost.
    this.worker.on("error", () => this.kill());
    this.worker.on("exit", () => this.kill());
  }

  kill(): void {
    if (this.dead) return;
    this.dead = true;
    this.started();
    void this.worker.terminate();
    for (const resolve of this.pending.values()) resolve("lost");
    this.pending.clear();
  }
}

const WORKER = workerUrl();

export class CompilePool {
  private slots: Slot[] = [];
  /** Which slot holds each compiled key. */
  private readonly holder = new Map<string, Slot>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly budget: CompileBudget) {}

  /** Compile one tool under `key` (a digest of what it is compiled from). Never throws. */
  compile(key: string, tool: Tool, options: StrictOptions, schemaBytes: number): Promise<Compiled> {
    if (schemaBytes > this.budget.maxSchemaBytes) {
      return Promise.resolve(
        tooLarge(`its input schema is ${schemaBytes} bytes of JSON, over the budget of ${this.budget.maxSchemaBytes}`),
      );
    }
    if (this.closed) return Promise.resolve(tooLarge("the proxy is closing"));
    const slot = this.pick();
    slot.load++;
    const run = slot.tail.then(() => this.run(slot, key, tool, options, schemaBytes));
    slot.tail = run.catch(() => undefined);
    return run;
  }

  /** Decode a call's arguments text with the codec compiled under `key`. */
  async decode(key: string, text: string): Promise<Decoded> {
    const slot = this.holder.get(key);
    if (slot === undefined || slot.dead) return "lost";
    const reply = await this.send(slot, { kind: "decode", key, text });
    if (reply === "lost" || reply.kind === "lost") return "lost";
    if (reply.kind === "decoded") return reply.result;
    throw new Error(`unexpected decode reply ${reply.kind}`);
  }

  /** Forget a codec no longer listed. */
  release(key: string): void {
    const slot = this.holder.get(key);
    this.holder.delete(key);
    if (slot !== undefined && !slot.dead) slot.worker.postMessage({ kind: "release", key } satisfies WorkerRequest);
  }

  /** Stop every worker at once, mid-compile included. */
  close(): void {
    this.closed = true;
    for (const slot of this.slots) slot.kill();
    this.slots = [];
  }

  private async run(slot: Slot, key: string, tool: Tool, options: StrictOptions, bytes: number): Promise<Compiled> {
    slot.load--;
    if (this.closed) return tooLarge("the proxy is closing");
    // Its worker was stopped while this compile waited: it goes to a live one.
    await slot.ready;
    if (slot.dead) return this.closed ? tooLarge("the proxy is closing") : this.compile(key, tool, options, bytes);
    let timer: NodeJS.Timeout | undefined;
    const overBudget = new Promise<"timeout">((done) => {
      timer = setTimeout(() => done("timeout"), this.budget.timeoutMs);
    });
    const reply = await Promise.race([this.send(slot, { kind: "compile", key, tool, options }), overBudget]);
    clearTimeout(timer);
    if (reply === "timeout") {
      this.stop(slot);
      return tooLarge(`compiling it took longer than the budget of ${this.budget.timeoutMs} ms`);
    }
    if (reply === "lost") return tooLarge(this.closed ? "the proxy is closing" : "its compile worker stopped");
    if (reply.kind === "strict") {
      this.holder.set(key, slot);
      return { kind: "strict", wire: reply.wire };
    }
    if (reply.kind === "pass-through") return { kind: "pass-through", reason: reply.reason };
    throw new Error(`unexpected compile reply ${reply.kind}`);
  }

  /** The live slot with the fewest compiles in line; a new one while below the worker count. */
  private pick(): Slot {
    this.slots = this.slots.filter((s) => !s.dead);
    const idle = this.slots.find((s) => s.load === 0);
    if (idle !== undefined) return idle;
    if (this.slots.length < this.budget.workers) {
      const slot = new Slot(WORKER);
      this.slots.push(slot);
      return slot;
    }
    return this.slots.reduce((a, b) => (b.load < a.load ? b : a));
  }

  /** A worker over budget is terminated: the codecs it held are gone, its waiting compiles move on. */
  private stop(slot: Slot): void {
    slot.kill();
    this.slots = this.slots.filter((s) => s !== slot);
    for (const [key, held] of this.holder) if (held === slot) this.holder.delete(key);
  }

  private send(slot: Slot, job: Job): Promise<WorkerReply | "lost"> {
    if (slot.dead) return Promise.resolve("lost");
    const id = this.nextId++;
    return new Promise((resolve) => {
      slot.pending.set(id, resolve);
      slot.worker.postMessage({ ...job, id } satisfies WorkerRequest);
    });
  }
}

function tooLarge(why: string): Compiled {
  const message = `the tool is too large to compile within the proxy's budget: ${why}`;
  return { kind: "pass-through", reason: { code: "schema-too-large", path: "", message, feedback: message } };
}

/**
 * The worker's built file. Run from the TypeScript sources (tests, benches), this
 * module is src/compile-pool.ts and the worker is taken from dist, which the build writes.
 */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith(".ts") ? new URL("../dist/compile-worker.js", here) : new URL("./compile-worker.js", here);
}
