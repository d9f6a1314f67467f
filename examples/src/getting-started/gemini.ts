import { geminiTools } from "@strictwire/codec";
import { updateProfileCodec } from "./tool.js";

// Gemini keeps every optional member native. Strict mode is the request's toolConfig (VALIDATED):
// geminiTools gives the declarations and that toolConfig together, to spread into the request.
const codec = updateProfileCodec("gemini");
const request = geminiTools([codec.bundle]);
if (!request.ok) throw new Error(request.error.message);
console.log(JSON.stringify(request.value.toolConfig));
for (const declaration of request.value.tools[0].functionDeclarations) console.log(Object.keys(declaration).join(", "));

// Decode each functionCall's args as you would any other provider's arguments.
const decoded = codec.decode(JSON.stringify({ userId: "u1", bio: null }));
console.log(decoded.ok ? decoded.value : decoded.error.feedback);
