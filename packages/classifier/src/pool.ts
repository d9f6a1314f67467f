/**
 * Classifying on worker threads. Records go out in batches (one message
 * carries many, their texts packed into one transferred buffer, so the cost
 * of a message is spread), a bounded number of batches is in flight at once
 * (so memory holds a window of the input, not the input), and results come
 * back out in the order the records went in.
 */
import { Worker } from "node:worker_threads";
import type { ResponseResult, StreamOptions, StreamRecord } from "./stream.js";

/** A batch closes at this many records or this many bytes of text, whichever comes first. */
const BATCH_RECORDS = 256;
const BATCH_BYTES = 1024 * 1024;
/** Batches in flight per worker: one being classified, one waiting, one coming back. */
const IN_FLIGHT_PER_WORKER = 3;

export type BatchItem =
  | { readonly kind: "text"; readonly line: number; readonly start: number; readonly end: number }
  | { readonly kind: "value"; readonly line: number | undefined; readonly value: unknown }
  | { readonly kind: "unreadable"; readonly line: number; readonly reason: string };

export interface Batch {
  readonly first: number;
  readonly items: readonly BatchItem[];
  readonly buffer: ArrayBuffer;
}

export interface WorkerSetup {
  readonly bundles: readonly string[];
  readonly limits: StreamOptions["limits"];
}

// Built, the worker sits beside this module; run from the TypeScript sources
// (the tests), the built one is used, since a worker cannot load .ts here.
const WORKER_URL = import.meta.url.endsWith(".ts")
  ? new URL("../dist/worker.js", import.meta.url)
  : new URL("./worker.js", import.meta.url);

/**
 * The worker runs built code: flags that point imports elsewhere (--conditions,
 * as a test runner sets to load TypeScript sources) stay with this thread.
 */
function workerExecArgv(): string[] {
  const kept: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--conditions" || arg === "-C") i += 1;
    else if (!arg.startsWith("--conditions=") && !arg.startsWith("-C=")) kept.push(arg);
  }
  return kept;
}

class Pending {
  readonly records: StreamRecord[] = [];
  bytes = 0;
  constructor(readonly first: number) {}

  pack(): { batch: Batch; transfer: ArrayBuffer[] } {
    const buffer = new ArrayBuffer(this.bytes);
    const view = new Uint8Array(buffer);
    let at = 0;
    const items = this.records.map((record): BatchItem => {
      if (record.kind === "text") {
        view.set(record.bytes, at);
        at += record.bytes.length;
        return { kind: "text", line: record.line, start: at - record.bytes.length, end: at };
      }
      if (record.kind === "unreadable") return { kind: "unreadable", line: record.line, reason: record.reason };
      return { kind: "value", line: record.line, value: record.value };
    });
    return { batch: { first: this.first, items, buffer }, transfer: [buffer] };
  }
}

interface Slot {
  readonly worker: Worker;
  readonly waiting: Map<number, { resolve: (results: ResponseResult[]) => void; reject: (error: Error) => void }>;
}

function startWorker(setup: WorkerSetup): Slot {
  const worker = new Worker(WORKER_URL, {
    workerData: setup,
    execArgv: workerExecArgv(),
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  const slot: Slot = { worker, waiting: new Map() };
  const failAll = (error: Error): void => {
    for (const waiter of slot.waiting.values()) waiter.reject(error);
    slot.waiting.clear();
  };
  worker.on("message", (message: { first: number; results: string }) => {
    const waiter = slot.waiting.get(message.first);
    slot.waiting.delete(message.first);
    waiter?.resolve(JSON.parse(message.results) as ResponseResult[]);
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error(`a classify worker stopped (exit code ${code})`)));
  return slot;
}

function send(slot: Slot, pending: Pending): Promise<ResponseResult[]> {
  const { batch, transfer } = pending.pack();
  return new Promise((resolve, reject) => {
    slot.waiting.set(batch.first, { resolve, reject });
    slot.worker.postMessage(batch, transfer);
  });
}

export async function* classifyInWorkers(
  records: AsyncIterable<StreamRecord> | Iterable<StreamRecord>,
  /** `first`: the index of the first of these records (some may have been classified already). */
  options: StreamOptions & { readonly workers: number; readonly first?: number },
): AsyncGenerator<ResponseResult> {
  const setup: WorkerSetup = { bundles: options.bundles ?? [], limits: options.limits };
  const slots = Array.from({ length: options.workers }, () => startWorker(setup));
  const inFlight: Promise<ResponseResult[]>[] = [];
  // A batch that fails before its turn to be read must not be an unhandled rejection.
  const track = (promise: Promise<ResponseResult[]>): void => {
    promise.catch(() => undefined);
    inFlight.push(promise);
  };
  let sent = 0;
  let index = (options.first ?? 1) - 1;
  let pending = new Pending(index + 1);
  try {
    for await (const record of records) {
      index += 1;
      pending.records.push(record);
      if (record.kind === "text") pending.bytes += record.bytes.length;
      if (pending.records.length < BATCH_RECORDS && pending.bytes < BATCH_BYTES) continue;
      track(send(slots[sent % slots.length]!, pending));
      sent += 1;
      pending = new Pending(index + 1);
      while (inFlight.length >= slots.length * IN_FLIGHT_PER_WORKER) yield* await inFlight.shift()!;
    }
    if (pending.records.length > 0) track(send(slots[sent % slots.length]!, pending));
    while (inFlight.length > 0) yield* await inFlight.shift()!;
  } finally {
    for (const slot of slots) {
      slot.worker.removeAllListeners("exit");
      await slot.worker.terminate();
    }
  }
}
