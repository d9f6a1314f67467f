/**
 * The generated pass counts only the members it reads; the text's member
 * count (namesOnce) then proves there was no other. So a member it never
 * looks at, in any object of the wire (a tag, an entry, a union's tag, the
 * arguments envelope, a closed object), must still get the reference's
 * verdict, which is a refusal wherever the wire is closed.
 */
import { type Codec, compileCodec } from "@strictwire/codec";
import { describe, expect, test } from "vitest";
import { schemaFixtures } from "../../testkit/fixtures.js";

/** Every object in `wire`, as the path of keys that reaches it. */
function objectPaths(wire: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(wire)) return wire.flatMap((item, i) => objectPaths(item, [...at, i]));
  if (typeof wire !== "object" || wire === null) return [];
  return [at, ...Object.entries(wire).flatMap(([k, v]) => objectPaths(v, [...at, k]))];
}

/** `wire` with member `name` added to the object at `path` (a copy). */
function withMember(wire: unknown, path: readonly (string | number)[], name: string, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(wire));
  let target = copy;
  for (const step of path) target = target[step];
  target[name] = value;
  return copy;
}

/** The wire value a codec writes for `value`, or undefined where it does not encode. */
function wireOf(codec: Codec, value: unknown): unknown {
  const wire = codec.encode(value);
  return wire.ok ? wire.value : undefined;
}

describe("members the generated pass does not read", () => {
  test("an extra member in any wire object gets the interpreted path's verdict", () => {
    let refused = 0;
    const forms = new Set<string>();
    for (const fixture of schemaFixtures()) {
      for (const options of [{}, { tags: "minimal" as const }, { presence: "compact" as const }]) {
        const compiled = compileCodec(fixture.schema, { name: "t", ...(fixture.options ?? {}), ...options });
        if (!compiled.ok) throw new Error(compiled.error.message);
        const codec = compiled.value;
        for (const value of fixture.valid.slice(0, 2)) {
          const wire = wireOf(codec, value);
          if (wire === undefined) continue;
          for (const path of objectPaths(wire)) {
            // A new name, and the names a tag, an entry or the envelope use (one of them already there is a no-op).
            for (const name of ["zz", "state", "value", "key", "arguments"]) {
              const text = JSON.stringify(withMember(wire, path, name, { state: "absent" }));
              if (text === JSON.stringify(wire)) continue;
              const generated = codec.decode(text);
              expect(generated, `${fixture.name} ${JSON.stringify(options)} ${text}`).toStrictEqual(
                codec.decode(text, { interpreted: true }),
              );
              if (!generated.ok) {
                refused++;
                forms.add(generated.error.code);
              }
            }
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(1000);
    expect([...forms]).toContain("wire-violation");
  });
});
