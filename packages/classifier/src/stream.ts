/**
 * The library's streaming classify: records in (an async iterable), results
 * out (an async iterable), one result per record, in input order. Records are
 * classified here or, with `workers` above 1, on worker threads.
 */
import { type CodecError, MAX_DEPTH_LIMIT, type ParseLimits, parseJson } from "@strictwire/codec";
import { codecBundleLoader } from "./bundles.js";
import type { ClassifyOptions } from "./classify.js";
import type { ToolCodec } from "./codecs.js";
import { responseEntry } from "./input.js";
import { classifyInWorkers } from "./pool.js";
import type { InputRecord } from "./records.js";
import { RECORD_CAP } from "./records.js";
import { bundleTools, type CallReport, reportCalls } from "./report.js";
import type { DeclaredTool } from "./shapes.js";

/** A record's text (from `splitRecords`, or a queue's message), or a response already parsed. */
export type StreamRecord =
  | InputRecord
  | { readonly kind: "value"; readonly value: unknown; readonly line?: number | undefined };

export type ResponseResult =
  | {
      readonly kind: "calls";
      /** The record's place in the input, from 1. */
      readonly index: number;
      readonly line: number | undefined;
      readonly responseId: string;
      readonly reports: readonly CallReport[];
    }
  | {
      readonly kind: "unreadable";
      readonly index: number;
      readonly line: number | undefined;
      readonly responseId: string;
      readonly reason: string;
    };

export interface StreamOptions {
  /** Bundle files' texts, loaded where the classifying happens (every worker loads its own). */
  readonly bundles?: readonly string[] | undefined;
  /** Bundles already loaded; these can only be used on this thread, so they need `workers` of 1. */
  readonly codecs?: readonly ToolCodec[] | undefined;
  /** Bounds for each arguments string. */
  readonly limits?: Partial<ParseLimits> | undefined;
  /** Threads to classify on; 1 (the default) classifies on this one. */
  readonly workers?: number | undefined;
}

/**
 * Each record's own bounds: the cap on its size, and generous node and depth
 * bounds. The depth is the codec's own most (no stored response nests deeper),
 * which lets the parser take its one-pass native path on the usual record.
 */
export const RECORD_LIMITS: ParseLimits = Object.freeze({
  maxBytes: RECORD_CAP,
  maxNodes: 50_000_000,
  maxDepth: MAX_DEPTH_LIMIT,
});

function describe(error: CodecError): string {
  return error.path === "" ? `${error.code}: ${error.message}` : `${error.code} at ${error.path}: ${error.message}`;
}

/** What classifying needs, prepared once per thread. */
export interface Classifier {
  readonly options: ClassifyOptions;
  readonly fromBundles: ReadonlyMap<string, DeclaredTool>;
}

export function prepareClassifier(options: StreamOptions): Classifier {
  const codecs: ToolCodec[] = [...(options.codecs ?? [])];
  for (const text of options.bundles ?? []) {
    const loaded = codecBundleLoader(text);
    if (loaded.ok) codecs.push(loaded.value);
  }
  return { options: { codecs, limits: options.limits }, fromBundles: bundleTools(codecs) };
}

/** One record, parsed with the bounded parser and classified. */
export function classifyRecord(record: StreamRecord, index: number, classifier: Classifier): ResponseResult {
  const line = record.line;
  let value: unknown;
  if (record.kind === "unreadable") {
    return { kind: "unreadable", index, line, responseId: `#${index}`, reason: record.reason };
  }
  if (record.kind === "text") {
    const parsed = parseJson(record.bytes, RECORD_LIMITS);
    if (!parsed.ok) {
      return {
        kind: "unreadable",
        index,
        line,
        responseId: `#${index}`,
        reason: `line ${record.line}: ${describe(parsed.error)}`,
      };
    }
    value = parsed.value;
  } else {
    value = record.value;
  }
  const entry = responseEntry(value, index);
  if (entry.kind === "unreadable") {
    const reason = line === undefined ? entry.reason : `line ${line}: ${entry.reason}`;
    return { kind: "unreadable", index, line, responseId: entry.responseId, reason };
  }
  const reports = reportCalls(entry.responseId, entry.response, classifier.options, classifier.fromBundles);
  return { kind: "calls", index, line, responseId: entry.responseId, reports };
}

async function* classifyHere(records: AsyncIterable<StreamRecord> | Iterable<StreamRecord>, options: StreamOptions) {
  const classifier = prepareClassifier(options);
  let index = 0;
  for await (const record of records) {
    index += 1;
    yield classifyRecord(record, index, classifier);
  }
}

/**
 * Starting worker threads costs about as much as classifying this many
 * records (each worker loads the codec and the validators), so the first
 * ones are classified here, and a stream that ends before them starts none.
 */
export const WORKERS_AFTER = 8192;

async function* remaining<T>(iterator: AsyncIterator<T>): AsyncGenerator<T> {
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  } finally {
    await iterator.return?.();
  }
}

async function* classifyThenShare(
  records: AsyncIterable<StreamRecord> | Iterable<StreamRecord>,
  options: StreamOptions & { readonly workers: number },
): AsyncGenerator<ResponseResult> {
  const iterator = (async function* () {
    yield* records;
  })();
  try {
    const classifier = prepareClassifier(options);
    let index = 0;
    while (index < WORKERS_AFTER) {
      const next = await iterator.next();
      if (next.done) return;
      index += 1;
      yield classifyRecord(next.value, index, classifier);
    }
    yield* classifyInWorkers(remaining(iterator), { ...options, first: index + 1 });
  } finally {
    await iterator.return(undefined);
  }
}

/**
 * Classify a stream of stored responses: one result per record, in the
 * order given, whatever the number of workers. Memory holds a bounded window
 * of records, not the stream. With `workers` above 1, the first
 * `WORKERS_AFTER` records are classified on this thread and the rest on the
 * workers.
 */
export function classifyStream(
  records: AsyncIterable<StreamRecord> | Iterable<StreamRecord>,
  options: StreamOptions = {},
): AsyncGenerator<ResponseResult> {
  const workers = Math.max(1, Math.floor(options.workers ?? 1));
  if (workers === 1) return classifyHere(records, options);
  if ((options.codecs?.length ?? 0) > 0) {
    throw new TypeError("loaded codecs cannot cross to worker threads; give the bundles' texts as `bundles`");
  }
  return classifyThenShare(records, { ...options, workers });
}
