/** classify's progress line, drawn on an injected stream: a terminal or not, colour or not, --json or not. */
import { describe, expect, test } from "vitest";
import { classifyProgress, duration } from "../src/classify-progress.js";
import type { OutStream } from "../src/io.js";

function stream(isTTY: boolean): OutStream & { text: () => string } {
  let text = "";
  return {
    isTTY,
    write: (s) => {
      text += s;
    },
    text: () => text,
  };
}

/** A clock the test moves. */
function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const state = (records: number, calls: number, findings: number, done = false) => ({ records, calls, findings, done });
const SGR = /\u001b\[[0-9;]*m/;

describe("the progress line", () => {
  test("on a terminal: records, calls per second, findings, the share read and the time left", () => {
    const out = stream(true);
    const time = clock();
    let read = 0;
    const bar = classifyProgress(out, {}, false, { totalBytes: 1000, bytesRead: () => read, now: time.now });
    time.advance(2_000);
    read = 250;
    bar.update(state(5000, 60_000, 12));
    expect(out.text()).toMatch(/^\r\u001b\[K/);
    const shown = out.text().replace(/\u001b\[[0-9;]*[mK]/g, "");
    expect(shown).toBe("\rclassify 5,000 records · 30,000 calls/s · 12 findings · 25% · 6s left");
    expect(out.text()).toMatch(SGR); // colour on a terminal
  });

  test("redrawn at most every 100 ms; cleared at the end and when output needs the line", () => {
    const out = stream(true);
    const time = clock();
    const bar = classifyProgress(out, {}, false, { bytesRead: () => 0, now: time.now });
    time.advance(10);
    bar.update(state(1, 1, 0));
    const once = out.text();
    time.advance(50);
    bar.update(state(2, 2, 0));
    expect(out.text()).toBe(once);
    time.advance(60);
    bar.update(state(3, 3, 0));
    expect(out.text().length).toBeGreaterThan(once.length);
    bar.clear();
    expect(out.text().endsWith("\r\u001b[K")).toBe(true);
    const cleared = out.text();
    bar.clear(); // nothing drawn since: nothing to erase
    expect(out.text()).toBe(cleared);
    time.advance(200);
    bar.update(state(4, 4, 0));
    bar.update(state(4, 4, 0, true));
    expect(out.text().endsWith("\r\u001b[K")).toBe(true);
  });

  test("without a known size (a pipe), no share and no time left", () => {
    const out = stream(true);
    const time = clock();
    const bar = classifyProgress(out, {}, false, { bytesRead: () => 500, now: time.now });
    time.advance(1_000);
    bar.update(state(10, 10, 0));
    expect(out.text()).not.toMatch(/%|left/);
  });

  test("NO_COLOR: the line is drawn without colour", () => {
    const out = stream(true);
    const time = clock();
    const bar = classifyProgress(out, { NO_COLOR: "" }, false, { bytesRead: () => 0, now: time.now });
    time.advance(1_000);
    bar.update(state(10, 10, 3));
    expect(out.text()).toContain("3 findings");
    expect(out.text()).not.toMatch(SGR);
  });

  test("not a terminal, or --json: nothing at all", () => {
    for (const [isTTY, json] of [
      [false, false],
      [true, true],
      [false, true],
    ] as const) {
      const out = stream(isTTY);
      const time = clock();
      const bar = classifyProgress(out, {}, json, { totalBytes: 10, bytesRead: () => 5, now: time.now });
      time.advance(1_000);
      bar.update(state(10, 10, 1));
      bar.clear();
      bar.update(state(10, 10, 1, true));
      expect(out.text()).toBe("");
    }
  });
});

test("durations read as a person reads them", () => {
  expect([duration(400), duration(59_000), duration(61_000), duration(3_725_000)]).toEqual([
    "0s",
    "59s",
    "1m 01s",
    "1h 02m",
  ]);
});
