import { compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { floorTasks } from "../src/sections/stream-floor.js";
import { deltasOf, LIMITS } from "../src/sections/streaming.js";

// The floor and the peers are timed against decode: each must do the work its row claims, on the same deltas.
// No character outside the BMP: jsonparse encodes each string delta to UTF-8 alone, so a surrogate pair split
// between deltas comes out as two U+FFFD (its time is still what it costs).
describe("streaming floor and peers", () => {
  const compiled = compileCodec(
    {
      type: "object",
      properties: { note: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
      required: ["tags"],
      additionalProperties: false,
    },
    { name: "floor", presence: "tagged", limits: LIMITS },
  );
  if (!compiled.ok) throw new Error(compiled.error.message);
  const codec = compiled.value;
  const encoded = codec.encode({ note: 'a "quoted" line\\n and ünïcode', tags: ["x", "y", "z"] });
  if (!encoded.ok) throw new Error(encoded.error.message);
  const text = JSON.stringify(encoded.value);
  const streams = [deltasOf(text, 5)];
  const tasks = Object.fromEntries(floorTasks([{ codec, text }], streams, LIMITS, true).map((t) => [t.name, t.fn]));

  it("times the same five tasks, partial-json only where asked", () => {
    expect(Object.keys(tasks)).toEqual([
      "receive",
      "receive + decode",
      "jsonparse",
      "@streamparser/json",
      "partial-json",
    ]);
    expect(floorTasks([{ codec, text }], streams, LIMITS, false).map((t) => t.name)).not.toContain("partial-json");
  });

  it("receives the whole text, and its decode is decode's", () => {
    const received = tasks.receive!() as { text: string }[];
    expect(received[0]!.text).toBe(text);
    expect(tasks["receive + decode"]!()).toEqual(codec.decode(text, { limits: LIMITS }));
  });

  it("each peer parses the deltas into the wire value itself", () => {
    const wire = JSON.parse(text);
    expect(tasks.jsonparse!()).toEqual(wire);
    expect(tasks["@streamparser/json"]!()).toEqual(wire);
    expect(tasks["partial-json"]!()).toEqual(wire);
  });

  it("refuses deltas that do not make the text", () => {
    expect(() => floorTasks([{ codec, text }], [deltasOf(`${text} `, 5)], LIMITS, false)).toThrow(
      /do not make the text/,
    );
  });
});
