import { compileCodec, streamCalls } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { APIS, eventsOf, fragmentOf } from "../src/sections/stream-pipeline.js";
import { deltasOf } from "../src/sections/streaming.js";

const compiled = compileCodec({
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer" }, unit: { enum: ["c", "f"] } },
  required: ["city"],
  additionalProperties: false,
});
if (!compiled.ok) throw new Error(compiled.error.message);
const codec = compiled.value;
const encoded = codec.encode({ city: 'Zoë\'s "Paris" 😀', days: 3 });
if (!encoded.ok) throw new Error(encoded.error.message);
const text = JSON.stringify(encoded.value);

describe("stream-pipeline section", () => {
  for (const api of APIS) {
    it(`${api}: the events carry the deltas the floor reads back, and streamCalls decodes them at the provider's end`, () => {
      const deltas = deltasOf(text, 5);
      const events = eventsOf(api, deltas, text, 7);
      const fragments = events
        .map((raw) => fragmentOf(api, JSON.parse(raw) as Record<string, unknown>))
        .filter((f) => f !== undefined);
      // Chat Completions' first chunk names the call with empty arguments.
      expect(fragments.filter((f) => f !== "")).toEqual(deltas);
      const reader = streamCalls(api, { tool: codec });
      const updates = [...events.flatMap((raw) => reader.event(JSON.parse(raw))), ...reader.finish()];
      const ends = updates.filter((u) => u.kind === "decoded" || u.kind === "cut" || u.kind === "refused");
      expect(ends).toEqual([{ kind: "decoded", id: expect.any(String), name: "tool", result: codec.decode(text) }]);
      expect(updates.filter((u) => u.kind === "partial").length).toBeGreaterThan(0);
    });
  }
});
