/**
 * A browser page's script: a streamed tool call, shown as it arrives in the
 * SOURCE form (the value the handler will get: an absent `unit` absent, not
 * `{"state":"absent"}`). The tool was compiled at build time, so the page
 * needs no 'unsafe-eval' in its Content Security Policy. Bundled by build.mjs
 * into app.js, which index.html loads.
 */
import { streamDecoder } from "@strictwire/codec/runtime";
import { load } from "../tools/get_weather.tool.mjs";

/** The model's argument text for one call, in the deltas a provider streams (recorded). */
export const RECORDED_DELTAS = [
  '{"ci',
  'ty":"Li',
  'ma","un',
  'it":{"sta',
  'te":"pres',
  'ent","value":"fahr',
  'enheit"}}',
];

/** Each delta's partial value in the source form, then the decoded call (or its refusal). */
export function streamedPartials(deltas) {
  const codec = load();
  if (!codec.ok) throw new Error(codec.error.message);
  const decoder = streamDecoder(codec.value);
  const partials = [];
  for (const delta of deltas) {
    const step = decoder.push(delta);
    partials.push(step.ok ? JSON.stringify(step.value) : `refused: ${step.error.code}`);
  }
  const end = decoder.end();
  return { partials, final: end.ok ? end.value : { error: end.error.code } };
}

if (typeof document !== "undefined") {
  const out = document.getElementById("partials");
  const { partials, final } = streamedPartials(RECORDED_DELTAS);
  partials.forEach((text, i) => {
    setTimeout(() => {
      const line = document.createElement("li");
      line.textContent = text;
      out.append(line);
      if (i === partials.length - 1) document.getElementById("final").textContent = JSON.stringify(final);
    }, 300 * i);
  });
}
