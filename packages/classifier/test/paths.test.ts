import { describe, expect, test } from "vitest";
import { renderPath, renderSteps } from "../src/paths.js";

describe("paths as the seed prints them", () => {
  test('steps tell an array index from a key named "0"; a bare pointer cannot', () => {
    expect(renderSteps("arguments", ["rows", 0, "sku"])).toBe("arguments.rows[0].sku");
    expect(renderSteps("arguments", ["meta", "0"])).toBe('arguments.meta["0"]');
    // Without the value, the pointer's "0" is taken for an index: the reason issues carry steps.
    expect(renderPath("arguments", "/meta/0")).toBe("arguments.meta[0]");
  });
});
