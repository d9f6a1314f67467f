/**
 * Bounded memory: refusing a 10 MB input makes no copy of it beyond the one
 * being read. Each case runs in its own process (heap-probe.ts), which counts
 * every byte allocated during the refusal with V8's sampling heap profiler,
 * collected objects included, so a transient copy shows as much as a kept one.
 */
import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, "../../../..");
const PROBE = join(here, "heap-probe.ts");
const run = promisify(execFile);

interface Probe {
  readonly code: string;
  readonly inputBytes: number;
  readonly allocatedBytes: number;
}

async function probe(name: string): Promise<Probe> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--conditions=strictwire-source", PROBE, name], {
    cwd: ROOT,
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split("\n").pop()!) as Probe;
}

const MB = 1_000_000;

describe("memory while refusing 10 MB", { timeout: 120_000 }, () => {
  it("under the default limits: the size decides before anything is allocated, text or bytes", async () => {
    for (const name of ["text-default-limits", "bytes-default-limits"]) {
      const p = await probe(name);
      expect(p.code, name).toBe("input-too-large");
      expect(p.inputBytes, name).toBeGreaterThan(10 * MB);
      expect(p.allocatedBytes, name).toBeLessThan(256 * 1024);
    }
  });

  it("with the size limit raised, a text read to its end is scanned in place: no copy", async () => {
    for (const [name, code] of [
      ["text-scanned-trailing-garbage", "invalid-json"],
      ["text-scanned-unterminated", "invalid-json"],
      ["text-scanned-too-deep", "too-deep"],
    ] as const) {
      const p = await probe(name);
      expect(p.code, name).toBe(code);
      expect(p.allocatedBytes, name).toBeLessThan(p.inputBytes / 10);
    }
  });

  it("with the size limit raised, bytes cost exactly one decoded text, the one being read", async () => {
    const p = await probe("bytes-scanned-trailing-garbage");
    expect(p.code).toBe("invalid-json");
    expect(p.allocatedBytes).toBeGreaterThan(p.inputBytes / 2);
    expect(p.allocatedBytes).toBeLessThan(p.inputBytes + MB);
  });

  it("a raw control character in the last long string: bounded, but JSON.parse builds the value first", async () => {
    // The scanner's fast path leaves raw control characters in long strings to
    // JSON.parse, which builds the whole value before it fails and the text is
    // scanned again. Linear, and gone at once, but about one input's worth of
    // garbage: reported to the lead with a proposed fix (see docs/security.md).
    const p = await probe("text-control-character-in-last-long-string");
    expect(p.code).toBe("invalid-json");
    expect(p.allocatedBytes).toBeLessThan(2 * p.inputBytes);
  });
});
