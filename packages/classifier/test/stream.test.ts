/**
 * The streaming library API: records in, results out, one per record, in
 * order, the same on worker threads as on this one. Worker runs use the
 * built worker (run `pnpm build` first).
 */
import { type Bundle, compile } from "@strictwire/codec";
import { beforeAll, describe, expect, test } from "vitest";
import {
  classifyStream,
  codecBundleLoader,
  type ResponseResult,
  runClassify,
  type StreamRecord,
  splitRecords,
  WORKERS_AFTER,
} from "../src/index.js";
import { capture } from "./support/io.js";

const CHARGE = {
  type: "object",
  additionalProperties: false,
  required: ["amount_cents", "reference"],
  properties: { amount_cents: { type: "integer", minimum: 1 }, reference: { type: "string", maxLength: 8 } },
};

let bundle: Bundle;
let bundleText: string;
beforeAll(() => {
  const compiled = compile(CHARGE, { name: "charge" });
  if (!compiled.ok) throw new Error(compiled.error.message);
  bundle = compiled.value;
  bundleText = JSON.stringify(bundle);
});

/** A Responses-API response; every seventh breaks its schema, every thirteenth names an unknown tool. */
function responseLine(n: number): string {
  const name = n % 13 === 0 ? "refund" : "charge";
  const amount = n % 7 === 0 ? `"${n}"` : String(n + 1);
  const calls = n % 5 === 0 ? 2 : 1;
  return JSON.stringify({
    id: `resp_${n}`,
    tools: [{ type: "function", name: "charge", strict: n % 3 !== 0, parameters: CHARGE }],
    output: Array.from({ length: calls }, (_, c) => ({
      type: "function_call",
      name,
      call_id: `call_${n}_${c}`,
      arguments: `{"amount_cents":${amount},"reference":"r${n}"}`,
    })),
  });
}

// The first WORKERS_AFTER records are classified on the calling thread; these
// logs go well past them, so that several batches reach every worker.
const RECORDS = WORKERS_AFTER + 2000;

/** Records with broken ones among them. */
function log(): string {
  const lines: string[] = [];
  for (let n = 1; n <= RECORDS; n++) lines.push(n % 97 === 0 ? `{"id": "resp_${n}", broken` : responseLine(n));
  return `${lines.join("\n")}\n`;
}

async function collect(results: AsyncIterable<ResponseResult>): Promise<ResponseResult[]> {
  const out: ResponseResult[] = [];
  for await (const result of results) out.push(result);
  return out;
}

// JSON has no undefined: compare what a result says.
const plain = (results: readonly ResponseResult[]) => JSON.parse(JSON.stringify(results));

describe("classifyStream", () => {
  test("one result per record, in order, the same on two workers as on this thread", async () => {
    const text = log();
    const here = await collect(classifyStream(splitRecords([text])));
    const there = await collect(classifyStream(splitRecords([text]), { workers: 2 }));
    expect(here).toHaveLength(RECORDS);
    expect(here.map((r) => r.index)).toEqual(Array.from({ length: RECORDS }, (_, i) => i + 1));
    expect(plain(there)).toEqual(plain(here));
    const broken = here.filter((r) => r.kind === "unreadable");
    const every97 = Array.from({ length: Math.floor(RECORDS / 97) }, (_, i) => (i + 1) * 97);
    expect(broken.map((r) => r.line)).toEqual(every97);
    expect(broken.at(-1)!.line).toBeGreaterThan(WORKERS_AFTER);
    expect(broken[0]).toMatchObject({ responseId: "#97", reason: expect.stringMatching(/^line 97: invalid-json/) });
    const states = new Set(here.flatMap((r) => (r.kind === "calls" ? r.reports.map((c) => c.state) : [])));
    expect(states).toEqual(
      new Set(["dispatchable", "dispatchable-unconstrained", "arguments-violate-schema", "unknown-tool"]),
    );
  });

  test("parsed values go through workers too, and bundles given as texts are loaded there", async () => {
    const wire = (args: string) => ({
      kind: "value" as const,
      value: {
        id: "chat_1",
        choices: [
          {
            finish_reason: "tool_calls",
            message: { tool_calls: [{ id: "c1", type: "function", function: { name: "charge", arguments: args } }] },
          },
        ],
      },
    });
    const good = JSON.stringify({ amount_cents: 5, reference: "ok" });
    const records: StreamRecord[] = [];
    for (let n = 0; n < RECORDS; n++) records.push(wire(good));
    const results = await collect(classifyStream(records, { workers: 2, bundles: [bundleText] }));
    expect(results).toHaveLength(RECORDS);
    const reports = results.flatMap((r) => (r.kind === "calls" ? r.reports : []));
    expect(reports).toHaveLength(RECORDS);
    expect(new Set(reports.map((r) => `${r.state} ${r.declaredBy}`))).toEqual(new Set(["dispatchable bundles"]));
  });

  test("loaded codecs cannot go to workers: a TypeError names the way that works", () => {
    const loaded = codecBundleLoader(bundleText);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(() => classifyStream([], { workers: 2, codecs: [loaded.value] })).toThrow(/give the bundles' texts/);
  });

  test("a consumer that stops early stops the workers (the stream ends, nothing hangs)", async () => {
    let taken = 0;
    for await (const _result of classifyStream(splitRecords([log()]), { workers: 2 })) {
      taken += 1;
      if (taken === WORKERS_AFTER + 300) break;
    }
    expect(taken).toBe(WORKERS_AFTER + 300);
  });
});

/** A stored Chat Completions response: calls, and no tool list. */
function chatResponse(id: string, args: string) {
  return {
    id,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          tool_calls: [{ id: `call_${id}`, type: "function", function: { name: "charge", arguments: args } }],
        },
      },
    ],
  };
}

describe("a response that declares no tools (issue 31, item 4)", () => {
  test("the bundles given are the declaration, and the report says so", async () => {
    const loaded = codecBundleLoader(bundleText);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const good = JSON.stringify({ amount_cents: 5, reference: "ok" });
    const long = JSON.stringify({ amount_cents: 5, reference: "far too long" });
    const text = [chatResponse("chat_good", good), chatResponse("chat_long", long)]
      .map((r) => JSON.stringify(r))
      .join("\n");
    const c = capture();
    await runClassify({ responsesText: text, codecs: [loaded.value], json: true }, c.io);
    const [first, second] = c.outLines().map((line) => JSON.parse(line));
    expect(first).toMatchObject({ state: "dispatchable", declaredBy: "bundles" });
    expect(first.detail).toMatch(/the tools are the bundles given, as this response declares none$/);
    expect(second).toMatchObject({ state: "arguments-violate-schema", declaredBy: "bundles" });
    // The bundles' tools are sent strict: the repair does not tell it to set strict.
    expect(second.repairs.join(" ")).not.toContain("Set strict: true");
  });

  test("without bundles it is unknown-tool, declared by the response", async () => {
    const c = capture();
    await runClassify({ responsesText: JSON.stringify(chatResponse("chat_1", "{}")), json: true }, c.io);
    expect(JSON.parse(c.outLines()[0]!)).toMatchObject({ state: "unknown-tool", declaredBy: "response" });
  });

  test("a response that declares its tools is judged by them, bundles or not", async () => {
    const loaded = codecBundleLoader(bundleText);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const declared = {
      id: "resp_1",
      tools: [{ type: "function", name: "other", strict: true, parameters: { type: "object" } }],
      output: [{ type: "function_call", name: "charge", call_id: "c", arguments: "{}" }],
    };
    const c = capture();
    await runClassify({ responsesText: JSON.stringify(declared), codecs: [loaded.value], json: true }, c.io);
    expect(JSON.parse(c.outLines()[0]!)).toMatchObject({ state: "unknown-tool", declaredBy: "response" });
  });
});
