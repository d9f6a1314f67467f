/** A rule chosen by a key's name (patternProperties) says which pattern chose it. */
import { compileCodec } from "@strictwire/codec";
import { expect, it } from "vitest";

it("a value too short under a key pattern names the pattern, the key and the bound", () => {
  const compiled = compileCodec({
    type: "object",
    properties: {
      env: {
        type: "object",
        patternProperties: { "^SECRET_": { type: "string", minLength: 16 } },
        additionalProperties: { type: "string" },
      },
    },
    required: ["env"],
    additionalProperties: false,
  });
  if (!compiled.ok) throw new Error(compiled.error.message);
  const codec = compiled.value;
  const encoded = codec.encode({ env: { PORT: "8080", SECRET_TOKEN: "0123456789abcdef" } });
  if (!encoded.ok) throw new Error(encoded.error.message);
  const decoded = codec.decode(JSON.stringify(encoded.value).replace('"0123456789abcdef"', '"hunter2"'));
  expect(decoded.ok).toBe(false);
  if (decoded.ok) return;
  expect(decoded.error.path).toBe("/env/SECRET_TOKEN");
  expect(decoded.error.feedback).toContain("^SECRET_");
  expect(decoded.error.feedback).toContain("16");
  expect(decoded.error.feedback).toContain('"hunter2"');
});
