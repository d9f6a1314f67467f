import { FULL_CASES, loadCases } from "/work/wt/stream-core/bench/src/cases.js";
import { deltasOf, LIMITS, largeCalls } from "/work/wt/stream-core/bench/src/sections/streaming.js";

const which = process.argv[2] ?? "calls";
let calls: { codec: any; text: string }[];
if (which === "calls") {
  const cases = loadCases(FULL_CASES as any);
  calls = cases.map((c: any) => ({ codec: c.tagged, text: c.taggedText }));
} else
  calls = largeCalls()
    .filter((l) => l.label.includes(which))
    .map((l) => l.call);
const streams = calls.map(({ text }, i) => deltasOf(text, 1 + i));
const t0 = performance.now();
let n = 0;
while (performance.now() - t0 < 8000) {
  for (let i = 0; i < calls.length; i++) {
    const d = calls[i]!.codec.streamDecoder({ limits: LIMITS });
    for (const x of streams[i]!) d.push(x);
    d.end();
  }
  n++;
}
console.log(which, calls.length, n);
