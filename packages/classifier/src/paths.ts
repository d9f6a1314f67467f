/**
 * JSON Pointers rendered the way the seed prints paths: arguments.rows[0].sku.
 * Walking the value tells an array index from an object key named "0"; without
 * a value, a numeric token is taken to be an index.
 */
import { isPlainObject, pointerTokens } from "@strictwire/codec/schema";

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

function keySegment(key: string): string {
  return PLAIN_KEY.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

const NO_VALUE = Symbol("no value");

/** Render a pointer under a label; pass the value it points into when known. */
export function renderPath(label: string, pointer: string, root: unknown = NO_VALUE): string {
  let out = label;
  let current: unknown = root;
  for (const token of pointerTokens(pointer)) {
    const isIndex = current === NO_VALUE ? /^(0|[1-9]\d*)$/.test(token) : Array.isArray(current);
    out += isIndex ? `[${token}]` : keySegment(token);
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isPlainObject(current)) current = Object.hasOwn(current, token) ? current[token] : undefined;
    else if (current !== NO_VALUE) current = undefined;
  }
  return out;
}

/** Steps rendered under a label: a number is an index, a string always a key (a key "0" stays ["0"]). */
export function renderSteps(label: string, steps: readonly (string | number)[]): string {
  let out = label;
  for (const step of steps) out += typeof step === "number" ? `[${step}]` : keySegment(step);
  return out;
}
