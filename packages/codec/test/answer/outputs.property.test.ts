/**
 * Structured outputs round-trip in all five response shapes (the four APIs and Bedrock Converse): for fixture and
 * generated schemas, a valid value encoded as the answer's text, put in a
 * whole response and in a stream of the API's events (split at random),
 * comes back exactly through decodeOutput and streamOutput; every streamed
 * partial is a subset of the final value in the source form (so never a
 * wire tag or an entry array where the value has none); and the same stream
 * stopped at any event boundary before the provider's end gives no value.
 */
import {
  type AnswerUpdate,
  type Codec,
  compileCodec,
  decodeOutput,
  type OutputApi,
  outputFormat,
  streamOutput,
} from "@strictwire/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs, type Schema, schemaArb, valueArb } from "../../testkit/arbitraries.js";
import { schemaFixtures } from "../../testkit/fixtures.js";
import { canonical } from "../../testkit/same.js";

const APIS: readonly OutputApi[] = ["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse"];
const TARGET = {
  "openai-chat": "openai",
  "openai-responses": "openai",
  anthropic: "anthropic",
  gemini: "gemini",
  "bedrock-converse": "anthropic",
} as const;

/** A whole response of `api` whose answer is `text`, ended as the provider ends an answer. */
function whole(api: OutputApi, text: string): unknown {
  switch (api) {
    case "openai-chat":
      return {
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: text, refusal: null } }],
      };
    case "openai-responses":
      return {
        status: "completed",
        output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] }],
      };
    case "anthropic":
      return { stop_reason: "end_turn", content: [{ type: "text", text }] };
    case "gemini":
      return { candidates: [{ finishReason: "STOP", content: { role: "model", parts: [{ text }] } }] };
    case "bedrock-converse":
      return { output: { message: { role: "assistant", content: [{ text }] } }, stopReason: "end_turn" };
  }
}

/** `api`'s stream events carrying `deltas`; the provider's end event last, when `ended`. */
function events(api: OutputApi, deltas: readonly string[], ended: boolean): unknown[] {
  switch (api) {
    case "openai-chat":
      return [
        ...deltas.map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
        ...(ended ? [{ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }] : []),
      ];
    case "openai-responses":
      return [
        ...deltas.map((delta) => ({ type: "response.output_text.delta", item_id: "msg_1", delta })),
        ...(ended
          ? [
              { type: "response.output_text.done", item_id: "msg_1", text: deltas.join("") },
              { type: "response.completed", response: { status: "completed" } },
            ]
          : []),
      ];
    case "anthropic":
      return [
        { type: "message_start", message: { content: [] } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        ...deltas.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
        ...(ended
          ? [
              { type: "content_block_stop", index: 0 },
              { type: "message_delta", delta: { stop_reason: "end_turn" } },
              { type: "message_stop" },
            ]
          : []),
      ];
    case "gemini":
      return deltas.map((text, i) => ({
        candidates: [
          {
            content: { role: "model", parts: [{ text }] },
            ...(ended && i === deltas.length - 1 ? { finishReason: "STOP" } : {}),
          },
        ],
      }));
    case "bedrock-converse":
      return [
        { messageStart: { role: "assistant" } },
        ...deltas.map((text) => ({ contentBlockDelta: { contentBlockIndex: 0, delta: { text } } })),
        ...(ended ? [{ contentBlockStop: { contentBlockIndex: 0 } }, { messageStop: { stopReason: "end_turn" } }] : []),
      ];
  }
}

function split(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of at) {
    if (c > from) out.push(text.slice(from, c));
    from = Math.max(from, c);
  }
  out.push(text.slice(from));
  return out.filter((d) => d !== "");
}

/** Why a partial is not a subset of the final value, in the source form; undefined when it is. */
function notSubset(partial: unknown, final: unknown, path = ""): string | undefined {
  if (typeof partial === "string") {
    return typeof final === "string" && final.startsWith(partial) ? undefined : `${path}: ${JSON.stringify(partial)}`;
  }
  if (Array.isArray(partial)) {
    if (!Array.isArray(final) || partial.length > final.length) return `${path}: array ${JSON.stringify(partial)}`;
    for (const [i, p] of partial.entries()) {
      const why = notSubset(p, final[i], `${path}/${i}`);
      if (why !== undefined) return why;
    }
    return undefined;
  }
  if (typeof partial === "object" && partial !== null) {
    if (typeof final !== "object" || final === null || Array.isArray(final)) {
      return `${path}: object ${JSON.stringify(partial)}`;
    }
    for (const [k, v] of Object.entries(partial)) {
      if (!Object.hasOwn(final, k)) return `${path}/${k}: not in the final value`;
      const why = notSubset(v, (final as Record<string, unknown>)[k], `${path}/${k}`);
      if (why !== undefined) return why;
    }
    return undefined;
  }
  return Object.is(partial, final) ? undefined : `${path}: ${JSON.stringify(partial)} (final ${JSON.stringify(final)})`;
}

/** Holds one value through one API, whole and streamed; false when the codec refuses the value at encode. */
function roundTrip(codec: Codec<unknown>, api: OutputApi, value: unknown, cuts: readonly number[]): boolean {
  const format = outputFormat(codec, api);
  expect(format.ok, JSON.stringify(!format.ok && format.error)).toBe(true);
  const encoded = codec.encode(value);
  if (!encoded.ok) return false;
  const text = JSON.stringify(encoded.value);

  const decoded = decodeOutput(codec, api, whole(api, text));
  expect(decoded.ok, JSON.stringify(!decoded.ok && decoded.error)).toBe(true);
  if (decoded.ok) expect(canonical(decoded.value)).toBe(canonical(value));

  const deltas = split(text, cuts);
  const answer = streamOutput(codec, api);
  const updates: AnswerUpdate[] = [];
  for (const event of events(api, deltas, true)) {
    for (const u of answer.event(event)) {
      if (u.kind === "partial") {
        const why = notSubset(u.value, value);
        expect(why, `partial ${JSON.stringify(u.value)} of ${text}`).toBeUndefined();
      }
      updates.push(u);
    }
  }
  expect(answer.finish()).toEqual([]);
  const last = updates.at(-1);
  expect(last?.kind).toBe("decoded");
  if (last?.kind === "decoded" && last.result.ok) expect(canonical(last.result.value)).toBe(canonical(value));
  expect(updates.filter((u) => u.kind === "refused")).toEqual([]);

  // The same stream stopped at every event boundary before the provider's end: never a value.
  const all = events(api, deltas, true);
  for (let stop = 0; stop < all.length; stop++) {
    const cut = streamOutput(codec, api);
    const cutUpdates = all.slice(0, stop).flatMap((e) => cut.event(e));
    cutUpdates.push(...cut.finish());
    expect(cutUpdates.some((u) => u.kind === "decoded")).toBe(false);
    expect(cutUpdates.at(-1)?.kind).toBe("cut");
  }
  return true;
}

describe("structured outputs round-trip in all five shapes", () => {
  it("every fixture's valid values, whole and streamed", { timeout: 240_000 }, () => {
    let checked = 0;
    for (const fixture of schemaFixtures()) {
      for (const api of APIS) {
        const compiled = compileCodec(fixture.schema, { ...fixture.options, name: "fixture", target: TARGET[api] });
        // A fixture the target cannot take (over its limits) is that target's refusal, not a round trip to hold.
        if (!compiled.ok) {
          expect(["target-limit", "unsupported-schema"]).toContain(compiled.error.code);
          continue;
        }
        for (const [i, value] of fixture.valid.entries()) {
          if (roundTrip(compiled.value, api, value, [i * 7 + 3, i * 13 + 11, 29])) checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it("generated schemas and values, split at random", { timeout: 120_000 }, () => {
    let checked = 0;
    const caseArb = schemaArb.chain((schema) => {
      const root: Schema = { type: "object", properties: { v: schema, w: schema }, required: ["v"] };
      return fc.tuple(fc.constant(root), valueArb(root));
    });
    fc.assert(
      fc.property(
        caseArb,
        fc.constantFrom(...APIS),
        fc.array(fc.nat(), { maxLength: 12 }),
        ([schema, value], api, cuts) => {
          const compiled = compileCodec(schema, { name: "generated", target: TARGET[api] });
          fc.pre(compiled.ok);
          if (!compiled.ok) return;
          fc.pre(compiled.value.validate(value).ok);
          if (roundTrip(compiled.value, api, value, cuts)) checked++;
        },
      ),
      { numRuns: runs(200) },
    );
    expect(checked).toBeGreaterThan(40);
  });
});

/** Where each API's stream event carries a text delta of the answer: the object holding it and its field. */
function textOf(api: OutputApi, event: unknown): [Record<string, unknown>, string] | undefined {
  type Obj = Record<string, unknown>;
  const e = event as Obj;
  const at = (o: unknown, ...steps: (string | number)[]): Obj | undefined => {
    let v = o;
    for (const step of steps) v = typeof v === "object" && v !== null ? (v as Obj)[step] : undefined;
    return typeof v === "object" && v !== null ? (v as Obj) : undefined;
  };
  switch (api) {
    case "openai-chat": {
      const delta = at(e, "choices", 0, "delta");
      return delta !== undefined && "content" in delta ? [delta, "content"] : undefined;
    }
    case "openai-responses":
      return e.type === "response.output_text.delta" ? [e, "delta"] : undefined;
    case "anthropic":
      return e.type === "content_block_delta" ? [at(e, "delta")!, "text"] : undefined;
    case "gemini":
      return [at(e, "candidates", 0, "content", "parts", 0)!, "text"];
    case "bedrock-converse": {
      const delta = at(e, "contentBlockDelta", "delta");
      return delta === undefined ? undefined : [delta, "text"];
    }
  }
}

describe("a text delta that carries no text", () => {
  const schema = {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
    additionalProperties: false,
  };
  const value = { path: "/home/user/docs" };

  it("fails the answer with a stream-violation, never decodes it without the piece", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...APIS),
        fc.array(fc.nat(), { minLength: 2, maxLength: 6 }),
        fc.nat(),
        fc.constantFrom<unknown>(42, true, {}, [], ["x"]),
        (api, cuts, pick, junk) => {
          const compiled = compileCodec(schema, { name: "answer", target: TARGET[api] });
          if (!compiled.ok) throw new Error(compiled.error.message);
          const encoded = compiled.value.encode(value);
          if (!encoded.ok) throw new Error(encoded.error.message);
          const all = structuredClone(events(api, split(JSON.stringify(encoded.value), cuts), true));
          const texts = all.flatMap((e) => {
            const place = textOf(api, e);
            return place === undefined ? [] : [place];
          });
          const [holder, field] = texts[pick % texts.length]!;
          holder[field] = junk;
          const answer = streamOutput(compiled.value, api);
          const updates = [...all.flatMap((e) => answer.event(e)), ...answer.finish()];
          expect(updates.some((u) => u.kind === "decoded")).toBe(false);
          expect(updates.at(-1)).toMatchObject({ kind: "failed", error: { code: "stream-violation" } });
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it("a whole response with a text block that carries no text is no answer, never a shorter one", () => {
    /** The list of text blocks in a whole response `whole` made. */
    const blocks = (api: OutputApi, response: unknown): unknown[] => {
      type R = {
        content: unknown[];
        output: [{ content: unknown[] }] & { message: { content: unknown[] } };
        candidates: [{ content: { parts: unknown[] } }];
      };
      const r = response as R;
      if (api === "anthropic") return r.content;
      if (api === "openai-responses") return r.output[0].content;
      if (api === "gemini") return r.candidates[0].content.parts;
      return r.output.message.content;
    };
    const add = (api: OutputApi, response: unknown, junk: unknown): void => {
      const block =
        api === "anthropic"
          ? { type: "text", text: junk }
          : api === "openai-responses"
            ? { type: "output_text", text: junk }
            : { text: junk };
      blocks(api, response).unshift(block);
    };
    for (const api of ["anthropic", "openai-responses", "gemini", "bedrock-converse"] as const) {
      const compiled = compileCodec(schema, { name: "answer", target: TARGET[api] });
      if (!compiled.ok) throw new Error(compiled.error.message);
      const text = JSON.stringify(value);
      expect(decodeOutput(compiled.value, api, whole(api, text))).toEqual({ ok: true, value });
      for (const junk of [42, {}, ["x"], true]) {
        const response = whole(api, text);
        add(api, response, junk);
        const decoded = decodeOutput(compiled.value, api, response);
        expect(decoded, `${api} ${JSON.stringify(junk)}`).toMatchObject({ ok: false, error: { code: "no-answer" } });
        expect(!decoded.ok && decoded.error.message).toContain("carries no text");
      }
    }
  });

  it("Chat Completions: null content between the deltas carries no text and breaks nothing", () => {
    const compiled = compileCodec(schema, { name: "answer", target: "openai" });
    if (!compiled.ok) throw new Error(compiled.error.message);
    const text = JSON.stringify(value);
    const all = events("openai-chat", split(text, [3, 9]), true).flatMap((e) => [
      e,
      { choices: [{ index: 0, delta: { content: null }, finish_reason: null }] },
    ]);
    const answer = streamOutput(compiled.value, "openai-chat");
    const updates = all.flatMap((e) => answer.event(e));
    expect(updates.at(-1)).toEqual({ kind: "decoded", result: { ok: true, value } });
  });
});
