/** A classify worker thread: batches of records in, their results out, in the same order. */
import { parentPort, workerData } from "node:worker_threads";
import type { Batch, WorkerSetup } from "./pool.js";
import { classifyRecord, prepareClassifier, type ResponseResult, type StreamRecord } from "./stream.js";

const setup = workerData as WorkerSetup;
const classifier = prepareClassifier({ bundles: setup.bundles, limits: setup.limits });

parentPort?.on("message", (batch: Batch) => {
  const bytes = new Uint8Array(batch.buffer);
  const results = batch.items.map((item, offset): ResponseResult => {
    const index = batch.first + offset;
    const record: StreamRecord =
      item.kind === "text"
        ? { kind: "text", index, line: item.line, bytes: bytes.subarray(item.start, item.end) }
        : item.kind === "unreadable"
          ? { ...item, index }
          : item;
    return classifyRecord(record, index, classifier);
  });
  // One string, not a graph of objects: cloning a string is a copy, and JSON.parse rebuilds it quicker.
  parentPort?.postMessage({ first: batch.first, results: JSON.stringify(results) });
});
