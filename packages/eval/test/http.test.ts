/** The wait between attempts without Retry-After: what postJson sleeps before each retry. */
import { describe, expect, it } from "vitest";
import { backoffDelayMs, retryAfterMs } from "../src/http.js";

/** The longest delay a Node timer takes: a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

describe("backoffDelayMs", () => {
  it("doubles from --backoff and stops at two minutes", () => {
    const waits = Array.from({ length: 100 }, (_, i) => backoffDelayMs(1_000, i + 1));
    expect(waits.slice(0, 8)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 120_000]);
    expect(waits.slice(7).every((ms) => ms === 120_000)).toBe(true);
  });

  it("is never a wait Node's timer would fire at once, whatever the flags allow", () => {
    for (const backoff of [1, 1_000, MAX_TIMER_MS])
      for (const attempt of [1, 22, 31, 100]) {
        const ms = backoffDelayMs(backoff, attempt);
        expect(ms).toBeGreaterThanOrEqual(backoff > 120_000 ? backoff : Math.min(backoff, 120_000));
        expect(ms).toBeLessThanOrEqual(MAX_TIMER_MS);
      }
  });

  it("waits --backoff itself when it is above two minutes", () => {
    expect([1, 2, 3].map((a) => backoffDelayMs(600_000, a))).toEqual([600_000, 600_000, 600_000]);
  });

  it("holds Retry-After to the same two minutes", () => {
    expect(retryAfterMs("5")).toBe(5_000);
    expect(retryAfterMs("86400")).toBe(120_000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});
