/** One assertion shared by the fixture and corpus tests: every hostile text is refused with its code (and path). */
import type { Codec } from "@strictwire/codec";
import { expect } from "vitest";
import { type HostileCase, rawInput } from "./fixtures.js";

export function expectRefused(codec: Codec, cases: readonly HostileCase[]): void {
  for (const c of cases) {
    const decoded = codec.decode(rawInput(c));
    expect(decoded.ok, c.name).toBe(false);
    if (decoded.ok) continue;
    expect(decoded.error.code, c.name).toBe(c.expect);
    if (c.path !== undefined) expect(decoded.error.path, c.name).toBe(c.path);
    expect(decoded.error.feedback.length, c.name).toBeGreaterThan(0);
  }
}
