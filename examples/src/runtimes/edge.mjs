/**
 * An Edge route (Vercel's Edge runtime, `edge-runtime`): a tool call POSTed as
 * {"name": "get_weather", "arguments": "<the model's argument text>"} is
 * decoded with a tool compiled at build time. The Edge runtime forbids code
 * generation, so compiling here would give `code-generation-unavailable`.
 *
 * In Next.js: app/api/call/route.js with `export { POST } from ...` and
 * `export const runtime = "edge"`.
 */
import { load } from "./tools/get_weather.tool.mjs";

export const config = { runtime: "edge" };

const codec = load();

export default async function handler(request) {
  if (!codec.ok) return Response.json({ error: codec.error.code }, { status: 500 });
  const call = await request.json();
  if (call?.name !== "get_weather" || typeof call.arguments !== "string")
    return Response.json({ error: 'expected {"name": "get_weather", "arguments": "..."}' }, { status: 400 });
  const decoded = codec.value.decode(call.arguments);
  // A refused call: the feedback is what goes back to the model.
  if (!decoded.ok)
    return Response.json({ error: decoded.error.code, feedback: decoded.error.feedback }, { status: 422 });
  return Response.json({ arguments: decoded.value });
}
