import { describe, expect, test } from "vitest";
import { parseResponsesText, readIds } from "../src/index.js";

const one = (id: string) => ({ id, output: [] });

describe("offline responses input", () => {
  test("one response object", () => {
    const parsed = parseResponsesText(JSON.stringify(one("resp_1")));
    expect(parsed).toEqual({ ok: true, value: [{ kind: "response", responseId: "resp_1", response: one("resp_1") }] });
  });

  test("an array of responses, in order", () => {
    const parsed = parseResponsesText(JSON.stringify([one("a"), one("b")]));
    expect(parsed.ok && parsed.value.map((e) => e.responseId)).toEqual(["a", "b"]);
  });

  test("JSON lines, with blank lines and CRLF endings", () => {
    const text = `${JSON.stringify(one("a"))}\r\n\r\n${JSON.stringify(one("b"))}\n${JSON.stringify(one("c"))}\n`;
    const parsed = parseResponsesText(text);
    expect(parsed.ok && parsed.value.map((e) => e.responseId)).toEqual(["a", "b", "c"]);
  });

  test("a response without an id is named by its place; a non-object entry is unreadable", () => {
    const parsed = parseResponsesText(JSON.stringify([{ output: [] }, 42]));
    expect(parsed).toEqual({
      ok: true,
      value: [
        { kind: "response", responseId: "#1", response: { output: [] } },
        { kind: "unreadable", responseId: "#2", reason: "entry 2 is integer, not a response object" },
      ],
    });
  });

  test("a broken JSON line is named by its line number", () => {
    const text = `${JSON.stringify(one("a"))}\n{"id": "b", oops}\n`;
    const parsed = parseResponsesText(text);
    expect(parsed.ok || parsed.error.message).toMatch(
      /^the responses input is not JSON or JSON lines \(line 2: invalid-json/,
    );
  });

  test("a broken pretty-printed document reports the document's error, not line 1", () => {
    const parsed = parseResponsesText('{\n  "id": "a",\n  "output": [\n}\n');
    expect(parsed.ok || parsed.error.message).not.toContain("line 1:");
    expect(parsed.ok).toBe(false);
  });

  test("duplicate keys in the document are refused, not resolved last-one-wins", () => {
    const parsed = parseResponsesText('{"id": "a", "id": "b"}');
    expect(parsed.ok || parsed.error.message).toMatch(/refused \(duplicate-key at \/id/);
  });

  test("empty input is no responses", () => {
    expect(parseResponsesText(" \n")).toEqual({ ok: true, value: [] });
  });
});

test("ids: one per line, blanks and # comments ignored, whitespace trimmed", () => {
  expect(readIds("# stored last week\nresp_1\n\n  resp_2  \r\n#resp_3\n")).toEqual(["resp_1", "resp_2"]);
});
