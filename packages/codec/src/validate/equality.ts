/**
 * `const`, `enum` and `uniqueItems` with JSON equality. ajv's run-time
 * equality (fast-deep-equal) calls a value's `valueOf`/`toString` when it has
 * members of those names and compares `constructor` by identity, so ordinary
 * data made validation throw (`{"valueOf": 1}`) or lie (two equal items with a
 * `constructor` member never compare equal). ajv has no option to replace it,
 * so these three keywords are replaced on every instance the codec makes
 * (`replaceKeyword` keeps each in its place in ajv's evaluation order).
 *
 * The functions are the run-time entry point's (`json.ts`): in memory they
 * are called directly; in a generated module they are `standaloneRuntime`'s,
 * named by the code strings below (standalone.ts maps them).
 */
import { _, type Code, type CodeKeywordDefinition, type KeywordCxt, type Name, str, stringify } from "ajv";
import { _Code } from "ajv/dist/compile/codegen/code.js";
import { type CodeGen, or } from "ajv/dist/compile/codegen/index.js";
import { duplicateItems, jsonEqual } from "../json.js";

/** What a generated validator writes for each function; standalone.ts replaces it with the runtime's member. */
export const EQUAL_CODE = 'require("@strictwire/codec/runtime").standaloneRuntime.equal';
export const DUPLICATE_ITEMS_CODE = 'require("@strictwire/codec/runtime").standaloneRuntime.duplicateItems';

// As ajv's own useFunc: the function in memory, its code text in a generated module.
const equalName = (gen: CodeGen): Name => gen.scopeValue("func", { ref: jsonEqual, code: new _Code(EQUAL_CODE) });
const duplicatesName = (gen: CodeGen): Name =>
  gen.scopeValue("func", { ref: duplicateItems, code: new _Code(DUPLICATE_ITEMS_CODE) });

/** Enums this long are checked in a loop rather than one expression (ajv's own threshold). */
const LOOP_ENUM = 200;

const isContainer = (value: unknown): boolean => typeof value === "object" && value !== null;

export const constKeyword: CodeKeywordDefinition = {
  keyword: "const",
  error: {
    message: "must be equal to constant",
    params: ({ schemaCode }) => _`{allowedValue: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema, schemaCode } = cxt;
    // A scalar is equal only to itself; a container is compared member by member.
    if (isContainer(schema)) cxt.fail(_`!${equalName(gen)}(${data}, ${schemaCode})`);
    else cxt.fail(_`${schema} !== ${data}`);
  },
};

/**
 * An enum's values as its error names them. A list of scalars is written out:
 * a reference into the schema (ajv's schemaCode) makes a generated module
 * carry the whole schema as a literal only for this. Containers (whose
 * literal could hold a "__proto__" key) and loop-sized lists stay references.
 */
function allowedValues(schema: unknown, schemaCode: Code | number | string | boolean | null): Code {
  const written =
    Array.isArray(schema) && schema.length < LOOP_ENUM && schema.every((v) => !isContainer(v) && !Object.is(v, -0));
  return written ? stringify(schema) : _`${schemaCode}`;
}

export const enumKeyword: CodeKeywordDefinition = {
  keyword: "enum",
  schemaType: "array",
  error: {
    message: "must be equal to one of the allowed values",
    params: ({ schema, schemaCode }) => _`{allowedValues: ${allowedValues(schema, schemaCode)}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema, schemaCode } = cxt;
    const values = schema as readonly unknown[];
    if (values.length >= LOOP_ENUM) {
      const valid = gen.let("valid", false);
      gen.forOf("v", schemaCode as Name, (v) =>
        gen.if(_`${equalName(gen)}(${data}, ${v})`, () => gen.assign(valid, true).break()),
      );
      cxt.pass(valid);
      return;
    }
    // Only containers are read from the schema: a list of scalars leaves it unread (see allowedValues).
    const list = values.some(isContainer) ? gen.const("vSchema", schemaCode) : undefined;
    cxt.pass(
      or(
        ...values.map((value, i) =>
          isContainer(value) ? _`${equalName(gen)}(${data}, ${list}[${i}])` : _`${data} === ${value as string}`,
        ),
      ),
    );
  },
};

export const uniqueItemsKeyword: CodeKeywordDefinition = {
  keyword: "uniqueItems",
  type: "array",
  schemaType: "boolean",
  error: {
    message: ({ params: { i, j } }) => str`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => _`{i: ${i}, j: ${j}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    if (schema !== true) return;
    const pair = gen.const("duplicate", _`${duplicatesName(gen)}(${data})`);
    cxt.setParams({ i: _`${pair}[1]`, j: _`${pair}[0]` });
    cxt.fail(_`${pair} !== undefined`);
  },
};
