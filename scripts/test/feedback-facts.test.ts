/** How the scorer decides that feedback contains a fact. */
import { describe, expect, it } from "vitest";
import { mentions, namesPath } from "../mistakes/corpus.js";

describe("namesPath", () => {
  it("finds a whole pointer in the original value's terms", () => {
    expect(namesPath("/milestone: must be >= 1, got 0", "/milestone")).toBe(true);
    expect(namesPath('at "/subtasks/1/points".', "/subtasks/1/points")).toBe(true);
    expect(namesPath("(/milestone)", "/milestone")).toBe(true);
  });

  it("does not count the pointer inside wire plumbing or a longer pointer", () => {
    expect(namesPath("/arguments/milestone/value: must be >= 1", "/milestone")).toBe(false);
    expect(namesPath("/milestone/value: must be >= 1", "/milestone")).toBe(false);
    expect(namesPath("/subtasks/10: required", "/subtasks/1")).toBe(false);
  });
});

describe("mentions", () => {
  it("ignores case and whitespace", () => {
    expect(mentions('write {"state": "absent"} instead', '"state":"absent"')).toBe(true);
    expect(mentions("Must be >=1", ">= 1")).toBe(true);
  });

  it("takes any one of several alternatives", () => {
    expect(mentions("must be at least 1", [">= 1", "at least 1"])).toBe(true);
    expect(mentions("must be positive", [">= 1", "at least 1"])).toBe(false);
  });

  it("does not find a number inside a longer one", () => {
    expect(mentions("got 10", "0")).toBe(false);
    expect(mentions("got 05", "0")).toBe(false);
    expect(mentions("got 0.", "0")).toBe(true);
  });

  it("does not find a word glued to the end of another", () => {
    expect(mentions("a noninteger", "integer")).toBe(false);
    expect(mentions("fewer than 1 characters", "fewer than 1 character")).toBe(true);
  });
});
