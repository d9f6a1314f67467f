/**
 * Child-process half of memory.test.ts: builds one hostile input, warms the
 * decoder up, then measures every byte allocated while decode refuses the
 * input (V8's sampling heap profiler, objects collected since included), and
 * prints {code, inputBytes, allocatedBytes} as JSON.
 *
 *   node --import tsx --conditions=strictwire-source heap-probe.ts <case>
 */
import { Session } from "node:inspector/promises";
import { compileCodec, type ParseLimits } from "../../src/index.js";

const TEN_MB = 10_000_000;
const RAISED: Partial<ParseLimits> = { maxBytes: 16_000_000, maxNodes: 16_000_000, maxDepth: 64 };

/** Many long strings: the commonest big argument, and the scanner's fast path. */
function longStrings(size: number): string {
  const item = `"${"a".repeat(98)}"`;
  return `{"x":[${Array(Math.floor(size / 99))
    .fill(item)
    .join(",")}],"m":{"state":"absent"}}`;
}

const CASES: Record<string, { input: () => string | Uint8Array; limits?: Partial<ParseLimits> }> = {
  "text-default-limits": { input: () => longStrings(TEN_MB) },
  "bytes-default-limits": { input: () => new Uint8Array(Buffer.from(longStrings(TEN_MB))) },
  "text-scanned-trailing-garbage": { input: () => `${longStrings(TEN_MB)} x`, limits: RAISED },
  "text-scanned-unterminated": { input: () => longStrings(TEN_MB).slice(0, -40), limits: RAISED },
  "text-scanned-too-deep": {
    input: () =>
      `{"arguments":{"x":[${Array(Math.floor(TEN_MB / 122))
        .fill(`${"[".repeat(60)}${"]".repeat(60)}`)
        .join(",")},${"[".repeat(70)}`,
    limits: RAISED,
  },
  "bytes-scanned-trailing-garbage": {
    input: () => new Uint8Array(Buffer.from(`${longStrings(TEN_MB)} x`)),
    limits: RAISED,
  },
  "text-control-character-in-last-long-string": {
    input: () => longStrings(TEN_MB).replace(/a"\]/, '\n"]'),
    limits: RAISED,
  },
};

async function main(name: string): Promise<void> {
  const spec = CASES[name];
  if (spec === undefined) throw new Error(`unknown case ${name}; one of ${Object.keys(CASES).join(", ")}`);
  const compiled = compileCodec({
    type: "object",
    properties: { x: {}, m: { type: "object", additionalProperties: { type: "string" } } },
    required: ["x"],
  });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
  const codec = compiled.value;
  const decode = (input: string | Uint8Array) =>
    spec.limits ? codec.decode(input, { limits: spec.limits }) : codec.decode(input);

  let input = spec.input();
  // A flat string, built before measuring: flattening a concatenation is not the decoder's allocation.
  if (typeof input === "string") input = JSON.parse(JSON.stringify(input)) as string;
  // Warm up every path on small inputs of the same kind, so that compiling and optimising is not counted.
  for (let i = 0; i < 3; i++) {
    decode(
      typeof input === "string" ? `${longStrings(10_000)} x` : new Uint8Array(Buffer.from(`${longStrings(10_000)} x`)),
    );
    decode(typeof input === "string" ? longStrings(10_000).replace(/a"\]/, '\n"]') : new Uint8Array(8));
  }

  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 16 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const result = decode(input);
  const { profile } = await session.post("HeapProfiler.stopSampling");
  session.disconnect();

  let allocated = 0;
  const stack = [profile.head];
  while (stack.length > 0) {
    const node = stack.pop()!;
    allocated += node.selfSize;
    stack.push(...node.children);
  }
  const inputBytes = typeof input === "string" ? Buffer.byteLength(input) : input.byteLength;
  process.stdout.write(
    `${JSON.stringify({ code: result.ok ? "accepted" : result.error.code, inputBytes, allocatedBytes: allocated })}\n`,
  );
}

main(process.argv[2] ?? "").catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
