import { describe, expect, it } from "vitest";
import { deltasOf } from "../src/sections/streaming.js";

describe("streaming section", () => {
  it("splits a text into deltas of 1 to 8 characters that join back to it, the same every run", () => {
    const text = '{"a":"Zoë 😀","b":[1,2,3],"c":null}'.repeat(20);
    const deltas = deltasOf(text, 3);
    expect(deltas.join("")).toBe(text);
    expect(deltas.every((d) => d.length >= 1 && d.length <= 8)).toBe(true);
    expect(new Set(deltas.map((d) => d.length)).size).toBeGreaterThan(4);
    expect(deltasOf(text, 3)).toEqual(deltas);
  });
});
