/**
 * The matrix's cells, the same on every runtime: each takes the installed
 * packages' exports (imported by the host, so a failed import is reported
 * beside the cells that did not need it) and returns an outcome,
 * `{ status: "ok" | "typed-error" | "FAIL", detail }`. Plain JavaScript with
 * no imports: it runs as it is on Node, Bun and Deno, and bundled on workerd,
 * the Edge runtime and in Chromium.
 */

/** The tool's contract: runtimes/run.mjs compiles it with the installed CLI (`compile --emit module`). */
export const SOURCE = {
  type: "object",
  properties: { city: { type: "string" }, unit: { enum: ["C", "F"] }, days: { type: "integer", minimum: 1 } },
  required: ["city"],
};

/** A call as the model writes it (the wire form), and the value it decodes to (`days` absent, not null). */
export const WIRE = '{"city":"Oslo","unit":{"state":"present","value":"C"},"days":{"state":"absent"}}';
export const DECODED = '{"city":"Oslo","unit":"C"}';
const OUT_OF_ENUM = '{"city":"Oslo","unit":{"state":"present","value":"K"},"days":{"state":"absent"}}';

/** What compile must say where code generation is forbidden. */
export const CODE_GENERATION_UNAVAILABLE = "code-generation-unavailable";

const ok = (detail) => ({ status: "ok", detail });
const fail = (detail) => ({ status: "FAIL", detail });

export function describe(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Runs one cell: a throw is that cell's failure, never the host's. */
export async function cell(run) {
  try {
    return await run();
  } catch (error) {
    return fail(`threw ${describe(error)}`);
  }
}

/** The text in pieces of `size` characters, as a model's deltas arrive. */
export function piecesOf(text, size) {
  const pieces = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function loaded(tool) {
  const codec = tool.load();
  if (!codec.ok) throw new Error(`the precompiled module did not load: ${codec.error.code} ${codec.error.message}`);
  return codec.value;
}

/** Precompiled decode: a round trip through the module from `compile --emit module`, and one refusal. */
export function precompiledCell(tool, wire = WIRE) {
  const codec = loaded(tool);
  const decoded = codec.decode(wire);
  if (!decoded.ok) return fail(`decode refused: ${decoded.error.code} ${decoded.error.message}`);
  const value = JSON.stringify(decoded.value);
  if (value !== DECODED) return fail(`decode gave ${value}, want ${DECODED}`);
  const encoded = codec.encode(decoded.value);
  if (!encoded.ok) return fail(`encode refused: ${encoded.error.code} ${encoded.error.message}`);
  const again = codec.decode(JSON.stringify(encoded.value));
  if (!again.ok || JSON.stringify(again.value) !== DECODED) return fail("encode then decode is not the identity");
  const refused = codec.decode(OUT_OF_ENUM);
  if (refused.ok) return fail('decode accepted unit "K", outside the enum');
  return ok(`decoded ${value}, encoded it back, refused unit "K" (${refused.error.code} at ${refused.error.path})`);
}

/**
 * The stream decoder (`streamDecoder` from @strictwire/codec/runtime: the
 * run-time Codec has no method for it): the pieces pushed as they come (an
 * array or an async iterable), each changed partial value handed to
 * `onPartial`; at least two partial values and an end equal to decode's.
 */
export async function streamCell(streamDecoder, tool, pieces, onPartial = () => {}) {
  const decoder = streamDecoder(loaded(tool));
  let changed = 0;
  let pushed = 0;
  for await (const piece of pieces) {
    pushed++;
    const step = decoder.push(piece);
    if (!step.ok) return fail(`push ${pushed} refused: ${step.error.code} ${step.error.message}`);
    if (step.changed) {
      changed++;
      await onPartial(step.value);
    }
  }
  const end = decoder.end();
  if (!end.ok) return fail(`end refused: ${end.error.code} ${end.error.message}`);
  if (JSON.stringify(end.value) !== DECODED) return fail(`end gave ${JSON.stringify(end.value)}, want ${DECODED}`);
  if (changed < 2) return fail(`${pushed} piece(s) gave ${changed} partial value(s), want at least 2`);
  return ok(`${pushed} pieces, ${changed} partial values, end ${JSON.stringify(end.value)}`);
}

/**
 * Compile at run time. Where code generation is allowed: a codec that decodes.
 * Where it is forbidden: the typed error, never a throw, never a codec (which
 * would mean the runtime did not forbid it after all), never blaming the schema.
 */
export function compileCell(compileCodec, codegen) {
  const compiled = compileCodec(SOURCE);
  if (codegen === "allowed") {
    if (!compiled.ok) return fail(`compile refused: ${compiled.error.code} ${compiled.error.message}`);
    const decoded = compiled.value.decode(WIRE);
    if (!decoded.ok || JSON.stringify(decoded.value) !== DECODED) return fail("the compiled codec did not decode");
    return ok(`compiled and decoded ${DECODED}`);
  }
  if (compiled.ok) return fail("compiled where code generation is forbidden: the runtime did not forbid it");
  if (compiled.error.code !== CODE_GENERATION_UNAVAILABLE) {
    return fail(`${compiled.error.code}, want ${CODE_GENERATION_UNAVAILABLE}: ${compiled.error.message}`);
  }
  return { status: "typed-error", detail: `${compiled.error.code}: ${compiled.error.message}` };
}

/** checkToolSet: the tool alone fits Anthropic; 21 copies cross its cap of 20 strict tools per request. */
export function toolSetCell(checkToolSet, bundle) {
  const alone = checkToolSet([bundle], "anthropic");
  if (!Array.isArray(alone) || alone.length !== 0) return fail(`one tool: ${JSON.stringify(alone).slice(0, 200)}`);
  const many = Array.from({ length: 21 }, (_, i) => ({ ...bundle, name: `${bundle.name}_${i}` }));
  const findings = checkToolSet(many, "anthropic");
  const cap = findings.find((f) => f.scope === "request" && f.measured === 21 && f.max === 20);
  if (cap === undefined)
    return fail(`21 tools: no finding for the cap of 20: ${JSON.stringify(findings).slice(0, 200)}`);
  return ok(`one tool fits; 21 tools: ${cap.limit} 21 > 20`);
}
