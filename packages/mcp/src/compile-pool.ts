/**
 * Upstream tools compiled off the proxy's event loop, each within a time, a
 * size and a memory budget, in worker threads that keep the codecs and decode
 * the calls, each decode within a time budget of its own. A worker runs one
 * job at a time, so each job's time is its own. A job over its time budget is
 * stopped by terminating its worker (a synchronous compile or decode cannot be
 * interrupted any other way); a worker over its memory budget is stopped by
 * Node. Either way the job is answered (the tool passes through, the call is
 * refused) and the codecs that worker held are compiled again, on a live one,
 * when a call needs them.
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
  /** Milliseconds one call's decode may take; over it the call is refused (and its worker replaced). */
  readonly decodeTimeoutMs: number;
  /** Megabytes of heap one worker may hold; over it the worker is stopped and its job answered. */
  readonly memoryMb: number;
}

export const DEFAULT_COMPILE_BUDGET: CompileBudget = {
  timeoutMs: 10_000,
  maxSchemaBytes: 1_048_576,
  workers: Math.max(1, Math.min(4, availableParallelism())),
  decodeTimeoutMs: 5_000,
  memoryMb: 512,
};

/** A compile's outcome: the wire schema (the codec stays in its worker), or why the tool passes through. */
export type Compiled =
  | { readonly kind: "strict"; readonly wire: unknown }
  | { readonly kind: "pass-through"; readonly reason: CodecError };

/** A decode's outcome; "lost" when no live worker holds the codec (compile it again). */
export type Decoded = Result<Record<string, unknown>> | "lost";

/** Workers started for one compile whose workers stopped before it ran (a budget too small to load the codec). */
const MAX_STARTS = 3;

/** One worker thread, the replies it owes, and its jobs in line (one runs at a time, so its budget is its own). */
class Slot {
  readonly worker: Worker;
  readonly pending = new Map<number, (reply: WorkerReply | "lost") => void>();
  tail: Promise<unknown> = Promise.resolve();
  load = 0;
  dead = false;
  /** Why the worker stopped, when it stopped on its own (an error, its memory budget). */
  stopped: string | undefined;
  /** Settles once the worker has loaded the codec and warmed ajv up (or died). */
  readonly ready: Promise<void>;
  private started: () => void = () => undefined;

  constructor(url: URL, memoryMb: number) {
    this.ready = new Promise((done) => {
      this.started = done;
    });
    this.worker = new Worker(url, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    this.worker.on("message", (reply: WorkerReply) => {
      if (reply.kind === "ready") return this.started();
      const resolve = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      resolve?.(reply);
    });
    // A worker that fails or exits ends like a terminated one: whatever it held is lost.
    // (Terminated by the pool, it did not stop on its own: `stopped` stays unset.)
    this.worker.on("error", (error) => {
      if (!this.dead) this.stopped ??= error.message;
      this.kill();
    });
    this.worker.on("exit", (code) => {
      if (!this.dead) this.stopped ??= `it exited with code ${code}`;
      this.kill();
    });
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
  compile(key: string, tool: Tool, options: StrictOptions, schemaBytes: number, starts = 0): Promise<Compiled> {
    if (schemaBytes > this.budget.maxSchemaBytes) {
      return Promise.resolve(
        tooLarge(`its input schema is ${schemaBytes} bytes of JSON, over the budget of ${this.budget.maxSchemaBytes}`),
      );
    }
    if (this.closed) return Promise.resolve(tooLarge("the proxy is closing"));
    const slot = this.pick();
    slot.load++;
    return this.enqueue(slot, async () => {
      slot.load--;
      return this.run(slot, key, tool, options, schemaBytes, starts);
    });
  }

  /**
   * Decode a call's arguments text with the codec compiled under `key`, within
   * the decode budget: a decode over it, or whose worker stops under it, is refused.
   */
  async decode(key: string, text: string): Promise<Decoded> {
    const slot = this.holder.get(key);
    if (slot === undefined || slot.dead || this.closed) return "lost";
    const reply = await this.enqueue(slot, () =>
      this.timed(slot, { kind: "decode", key, text }, this.budget.decodeTimeoutMs),
    );
    if (reply === "timeout") {
      return overBudget(`decoding them took longer than the budget of ${this.budget.decodeTimeoutMs} ms`);
    }
    if (reply === "stopped") return overBudget(`the worker decoding them stopped: ${slot.stopped ?? "unknown"}`);
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

  private async run(
    slot: Slot,
    key: string,
    tool: Tool,
    options: StrictOptions,
    bytes: number,
    starts: number,
  ): Promise<Compiled> {
    if (this.closed) return tooLarge("the proxy is closing");
    // Its worker was stopped while this compile waited: it goes to a live one (a few times at most,
    // in case no worker can start at all, e.g. a memory budget too small to load the codec).
    await slot.ready;
    if (slot.dead) {
      if (this.closed) return tooLarge("the proxy is closing");
      if (slot.stopped !== undefined && starts + 1 >= MAX_STARTS)
        return tooLarge(`no compile worker could start: ${slot.stopped}`);
      return this.compile(key, tool, options, bytes, slot.stopped !== undefined ? starts + 1 : starts);
    }
    const reply = await this.timed(slot, { kind: "compile", key, tool, options }, this.budget.timeoutMs);
    if (reply === "timeout") return tooLarge(`compiling it took longer than the budget of ${this.budget.timeoutMs} ms`);
    if (reply === "stopped") return tooLarge(`its compile worker stopped while compiling it: ${slot.stopped}`);
    if (reply === "lost") return tooLarge(this.closed ? "the proxy is closing" : "its compile worker stopped");
    if (reply.kind === "strict") {
      this.holder.set(key, slot);
      return { kind: "strict", wire: reply.wire };
    }
    if (reply.kind === "pass-through") return { kind: "pass-through", reason: reply.reason };
    throw new Error(`unexpected compile reply ${reply.kind}`);
  }

  /** Run `job` once the slot's earlier jobs have ended, so it has the worker to itself. */
  private enqueue<T>(slot: Slot, job: () => Promise<T>): Promise<T> {
    const run = slot.tail.then(job);
    slot.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * One job on an idle worker within `ms`: "timeout" (the worker is terminated),
   * "stopped" (the worker stopped on its own during the job: an error, its memory budget).
   */
  private async timed(slot: Slot, job: Job, ms: number): Promise<WorkerReply | "lost" | "timeout" | "stopped"> {
    if (slot.dead) return "lost";
    let timer: NodeJS.Timeout | undefined;
    const over = new Promise<"timeout">((done) => {
      timer = setTimeout(() => done("timeout"), ms);
    });
    const reply = await Promise.race([this.send(slot, job), over]);
    clearTimeout(timer);
    if (reply === "timeout") this.stop(slot);
    else if (reply === "lost" && slot.stopped !== undefined && !this.closed) return "stopped";
    return reply;
  }

  /** The live slot with the fewest jobs in line; a new one while below the worker count. */
  private pick(): Slot {
    this.slots = this.slots.filter((s) => !s.dead);
    const idle = this.slots.find((s) => s.load === 0);
    if (idle !== undefined) return idle;
    if (this.slots.length < this.budget.workers) {
      const slot = new Slot(WORKER, this.budget.memoryMb);
      this.slots.push(slot);
      return slot;
    }
    return this.slots.reduce((a, b) => (b.load < a.load ? b : a));
  }

  /** A worker over budget is terminated: the codecs it held are gone, its waiting jobs move on. */
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
      try {
        slot.worker.postMessage({ ...job, id } satisfies WorkerRequest);
      } catch (error) {
        // A value the structured clone cannot copy (nested some thousands deep, where JSON.stringify still
        // goes): answered here, as the worker would a job it could not do, never a rejection.
        slot.pending.delete(id);
        const why = `it could not be handed to a compile worker: ${error instanceof Error ? error.message : String(error)}`;
        resolve(
          job.kind === "compile"
            ? { id, kind: "pass-through", reason: tooLarge(why).reason }
            : { id, kind: "decoded", result: overBudget(why) },
        );
      }
    });
  }
}

/** A call the proxy could not check within its budget: refused, never forwarded unchecked. */
function overBudget(why: string): { readonly ok: false; readonly error: CodecError } {
  const message = `strictwire could not check these arguments within the proxy's budget: ${why}`;
  return { ok: false, error: { code: "exceeds-decoder-limits", path: "", message, feedback: message } };
}

function tooLarge(why: string): Compiled & { readonly kind: "pass-through" } {
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
