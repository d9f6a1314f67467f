import { toolDefinition } from "@strictwire/codec";
import { updateProfileCodec } from "./tool.js";

// Gemini keeps every optional member native. Its function declaration:
const codec = updateProfileCodec("gemini");
const declaration = toolDefinition(codec.bundle, "gemini");
if (!declaration.ok) throw new Error(declaration.error.message);
console.log(JSON.stringify(declaration.value, null, 2));

// Decode each functionCall's args as you would any other provider's arguments.
const decoded = codec.decode(JSON.stringify({ userId: "u1", bio: null }));
console.log(decoded.ok ? decoded.value : decoded.error.feedback);
