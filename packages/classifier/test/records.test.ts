import { parseJson } from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type InputRecord, RecordSplitter, splitRecords } from "../src/records.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The records of `text` fed in pieces cut at the given offsets. */
function split(text: string, cuts: readonly number[] = [], cap?: number): InputRecord[] {
  const bytes = encoder.encode(text);
  const splitter = new RecordSplitter(cap);
  const out: InputRecord[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (cut <= from || cut >= bytes.length) continue;
    out.push(...splitter.push(bytes.subarray(from, cut)));
    from = cut;
  }
  out.push(...splitter.push(bytes.subarray(from)));
  out.push(...splitter.end());
  return out;
}

/** What each record says: its text, or its reason; with the line it starts on. */
const shown = (records: readonly InputRecord[]) =>
  records.map((r) =>
    r.kind === "text" ? { line: r.line, text: decoder.decode(r.bytes) } : { line: r.line, reason: r.reason },
  );

/** The bounded parser's reading of one text. */
function reading(text: string): unknown {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : { refused: parsed.error.code };
}

const values = (records: readonly InputRecord[]): unknown[] =>
  records.map((r) => {
    if (r.kind !== "text") return { unreadable: r.reason };
    const parsed = parseJson(r.bytes);
    return parsed.ok ? parsed.value : { refused: parsed.error.code };
  });

describe("JSON lines", () => {
  test("each non-blank line is a record, CRLF and blank lines allowed, numbered by line", () => {
    expect(shown(split('{"a":1}\r\n\r\n  {"b":2}\n[3]\n"x"\n'))).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 3, text: '{"b":2}' },
      { line: 4, text: "[3]" },
      { line: 5, text: '"x"' },
    ]);
  });

  test("a broken line spoils only itself, even an unbalanced one after the first", () => {
    const text = '{"id":"a"}\n{"id": "b", oops}\n{"id":"c", "x": [\n{"id":"d"}\n';
    expect(values(split(text))).toEqual([
      { id: "a" },
      { refused: "invalid-json" },
      { refused: "invalid-json" },
      { id: "d" },
    ]);
  });

  test("a last line without a newline is a record", () => {
    expect(shown(split('{"a":1}\n{"b":2}'))).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '{"b":2}' },
    ]);
  });

  test("braces and newlines' escapes inside strings do not end a record", () => {
    const line = JSON.stringify({ s: '}{"]\\[\n', t: "\\" });
    expect(values(split(`${line}\n${line}\n`))).toEqual([JSON.parse(line), JSON.parse(line)]);
  });
});

describe("one JSON array", () => {
  test("each element is a record, numbered by the line it starts on", () => {
    const text = '[\n  {"a": [1, {"b": "]"}]},\n  2,\n  "s,]"\n]\n';
    expect(shown(split(text))).toEqual([
      { line: 2, text: '{"a": [1, {"b": "]"}]}' },
      { line: 3, text: "2" },
      { line: 4, text: '"s,]"\n' },
    ]);
  });

  test("an empty array is no records", () => {
    expect(split(" [ ] \n")).toEqual([]);
  });

  test("an empty element and text after the array are reported, the rest kept", () => {
    expect(values(split("[1,,2,]\nmore"))).toEqual([
      1,
      { unreadable: "line 1: an empty array element (two commas, or a comma before ])" },
      2,
      { unreadable: "line 1: an empty array element (two commas, or a comma before ])" },
      { unreadable: "line 2: text after the closing ] of the array, ignored" },
    ]);
  });

  test("an array cut short keeps its whole elements and says it was cut", () => {
    expect(values(split('[{"a":1},\n{"b":2},\n{"c":'))).toEqual([
      { a: 1 },
      { b: 2 },
      { refused: "invalid-json" },
      { unreadable: "line 3: the array is not closed with ], so the input may be cut short" },
    ]);
  });

  test("a stray closer inside an element cannot swallow the rest", () => {
    expect(values(split("[}, 1, 2]"))).toEqual([{ refused: "invalid-json" }, 1, 2]);
  });
});

describe("documents one after another", () => {
  test("a pretty-printed response is one record", () => {
    const text = JSON.stringify({ id: "a", output: [{ x: "}" }] }, null, 2);
    expect(values(split(text))).toEqual([{ id: "a", output: [{ x: "}" }] }]);
  });

  test("several pretty-printed documents are several records", () => {
    const text = `${JSON.stringify({ id: "a" }, null, 2)}\n${JSON.stringify({ id: "b", n: [1] }, null, 2)}\n`;
    expect(values(split(text))).toEqual([{ id: "a" }, { id: "b", n: [1] }]);
  });

  test("a broken pretty-printed document is one refused record starting at line 1", () => {
    const records = split('{\n  "id": "a",\n  "output": [\n}\n');
    expect(records).toHaveLength(1);
    expect(records[0]!.line).toBe(1);
    expect(values(records)).toEqual([{ refused: "invalid-json" }]);
  });
});

describe("the cap is per record", () => {
  test("a record over the cap is reported and skipped; the ones around it are kept", () => {
    const big = JSON.stringify({ s: "x".repeat(100) });
    const text = `{"a":1}\n${big}\n{"b":2}\n`;
    expect(values(split(text, [3, 20, 60], 64))).toEqual([
      { a: 1 },
      { unreadable: "line 2: the record is larger than 0 MiB, so it was skipped" },
      { b: 2 },
    ]);
  });

  test("in an array too", () => {
    const text = `[{"a":1}, ${JSON.stringify({ s: "y".repeat(200) })}, {"b":2}]`;
    const out = values(split(text, [5, 50, 150], 64));
    expect(out[0]).toEqual({ a: 1 });
    expect(out[1]).toMatchObject({ unreadable: expect.stringContaining("larger than") });
    expect(out[2]).toEqual({ b: 2 });
  });
});

test("splitRecords reads an async stream of strings and bytes", async () => {
  async function* chunks() {
    yield '{"a":';
    yield encoder.encode('1}\n{"b"');
    yield ":2}\n";
  }
  const records: InputRecord[] = [];
  for await (const record of splitRecords(chunks())) records.push(record);
  expect(values(records)).toEqual([{ a: 1 }, { b: 2 }]);
  expect(records.map((r) => r.index)).toEqual([1, 2]);
});

// Against the codec's own parser on the same values: whatever the chunking,
// the records are the parser's reading of the whole text, element by element.
describe("against the bounded parser, any chunking", () => {
  const value = fc.jsonValue({ maxDepth: 4 });
  const cuts = fc.array(fc.nat({ max: 4000 }), { maxLength: 12 });

  test("a JSON array, compact or pretty", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), cuts, fc.boolean(), (items, at, pretty) => {
        const text = JSON.stringify(items, null, pretty ? 2 : undefined);
        const records = values(split(text, at));
        expect(records).toEqual(items.map((item) => reading(JSON.stringify(item))));
        const whole = parseJson(text);
        if (whole.ok) expect(records).toEqual(whole.value);
      }),
    );
  });

  test("JSON lines of objects", () => {
    const object = fc.dictionary(fc.string(), value, { maxKeys: 4 });
    fc.assert(
      fc.property(fc.array(object, { minLength: 1, maxLength: 8 }), cuts, (items, at) => {
        const text = items.map((item) => `${JSON.stringify(item)}\n`).join("");
        expect(values(split(text, at))).toEqual(items.map((item) => reading(JSON.stringify(item))));
      }),
    );
  });

  test("pretty-printed objects one after another", () => {
    const object = fc.dictionary(fc.string(), value, { minKeys: 1, maxKeys: 4 });
    fc.assert(
      fc.property(fc.array(object, { minLength: 1, maxLength: 5 }), cuts, (items, at) => {
        const text = items.map((item) => JSON.stringify(item, null, 2)).join("\n");
        const expected = items.map((item) => reading(JSON.stringify(item)));
        // A one-line first object makes the input JSON lines; those then must each be one line.
        if (!JSON.stringify(items[0], null, 2).includes("\n")) return;
        expect(values(split(text, at))).toEqual(expected);
      }),
    );
  });

  test("the same records for every chunking of arbitrary text", () => {
    const text = fc.string({ unit: fc.constantFrom("{", "}", "[", "]", ",", '"', "\\", "\n", " ", "a", "1") });
    fc.assert(
      fc.property(text, cuts, (t, at) => {
        expect(shown(split(t, at))).toEqual(shown(split(t)));
      }),
    );
  });
});

test("JSON lines whose first line is broken and unbalanced stay JSON lines", () => {
  expect(values(split('{"id": "a", "x": [\n{"id":"b"}\n{"id":"c"}\n'))).toEqual([
    { refused: "invalid-json" },
    { id: "b" },
    { id: "c" },
  ]);
  expect(split('{"id": "a", "x": [\n{"id":"b"}\n', [19]).map((r) => r.line)).toEqual([1, 2]);
});

test("a byte order mark before the first record is skipped, in one chunk or split", () => {
  const text = '\uFEFF{"a":1}\n{"b":2}\n';
  for (const cuts of [[], [1], [2], [1, 2], [3]]) expect(values(split(text, cuts))).toEqual([{ a: 1 }, { b: 2 }]);
  // Bytes that only start like one are kept.
  expect(values(split("\uF000[1]", [1]))).toEqual([{ refused: "invalid-json" }]);
  expect(shown(split("\uF000", [1]))).toEqual([{ line: 1, text: "\uF000" }]);
});
