/**
 * Plan-node shapes described once: each descriptor below is both the
 * TypeScript type of a node (`Infer`) and its structural check at load, when
 * the plan comes from an untrusted bundle. A child node is only queued
 * (`CheckContext.push`): the plan check walks the plan itself.
 */
import { isPlainObject, type JsonObject, type JsonValue } from "../json.js";

/** The verdict of the plan check at load: where a damaged plan is wrong, and why. */
export type Check = { ok: true } | { ok: false; path: string; reason: string };

export const OK: Check = { ok: true };

export const bad = (path: string, reason: string): Check => ({ ok: false, path, reason });

export interface CheckContext {
  readonly defs: Readonly<Record<string, unknown>>;
  /** Queue a child (unchecked JSON) for the check, at its place in the bundle. */
  push(node: unknown, at: string): void;
}

/** Where a child node stands in a shape; `Infer` replaces it by the node union. */
export interface ChildNode {
  readonly __child: () => void;
}

export interface Shape<T> {
  check(value: unknown, at: string, ctx: CheckContext): Check;
  /** A leaf's failure is reported by the list or member record holding it, in that one's words. */
  readonly leaf?: boolean;
  /** Carries the type only; never set. */
  readonly __type?: T;
}

type Optional<T> = Shape<T | undefined> & { readonly optional: true };

/** The kind tag: the plan check routes by it, so the shape only declares it. */
export const tag = <L extends string>(_kind: L): Shape<L> => ({ check: () => OK, leaf: true });

export const string = (reason = "expected a string"): Shape<string> => ({
  check: (v, at) => (typeof v === "string" ? OK : bad(at, reason)),
  leaf: true,
});

export const boolean = (reason = "expected a boolean"): Shape<boolean> => ({
  check: (v, at) => (typeof v === "boolean" ? OK : bad(at, reason)),
  leaf: true,
});

/** A non-negative integer (a branch index). */
export const index = (reason = "expected an index"): Shape<number> => ({
  check: (v, at) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? OK : bad(at, reason)),
  leaf: true,
});

export const oneOf = <L extends string>(values: readonly L[], reason: string): Shape<L> => ({
  check: (v, at) => (values.includes(v as L) ? OK : bad(at, reason)),
  leaf: true,
});

/** Wire keywords and other JSON carried as is. */
export const json = (reason = "expected an object"): Shape<JsonObject> => ({
  check: (v, at) => (isPlainObject(v) ? OK : bad(at, reason)),
  leaf: true,
});

/** A child node, queued for the plan check. */
export const child = (): Shape<ChildNode> => ({
  check(v, at, ctx) {
    ctx.push(v, at);
    return OK;
  },
});

export const optional = <T>(shape: Shape<T>): Optional<T> => ({
  check: (v, at, ctx) => (v === undefined ? OK : shape.check(v, at, ctx)),
  optional: true,
  ...(shape.leaf === true ? { leaf: true } : {}),
});

/** An array; a leaf item that fails fails the whole list, at the list. */
export function list<T>(item: Shape<T>, reason: string, options: { nonEmpty?: boolean } = {}): Shape<readonly T[]> {
  return {
    check(v, at, ctx) {
      if (!Array.isArray(v) || (options.nonEmpty === true && v.length === 0)) return bad(at, reason);
      for (const [i, x] of v.entries()) {
        const r = item.check(x, `${at}/${i}`, ctx);
        if (!r.ok) return item.leaf === true ? bad(at, reason) : r;
      }
      return OK;
    },
    ...(item.leaf === true ? { leaf: true } : {}),
  };
}

/** An object of any keys, each value a leaf. */
export const record = <K extends string, T>(
  value: Shape<T>,
  reason: string,
): Shape<string extends K ? Readonly<Record<K, T>> : Readonly<Partial<Record<K, T>>>> => ({
  check(v, at, ctx) {
    if (!isPlainObject(v)) return bad(at, reason);
    for (const k of Object.keys(v)) if (!value.check(v[k], at, ctx).ok) return bad(at, reason);
    return OK;
  },
  leaf: true,
});

type Members = Readonly<Record<string, Shape<unknown>>>;
type OptionalKeys<M extends Members> = { [K in keyof M]: M[K] extends { optional: true } ? K : never }[keyof M];
type ShapeType<S> = S extends Shape<infer T> ? T : never;
export type ObjectOf<M extends Members> = {
  readonly [K in Exclude<keyof M, OptionalKeys<M>>]: ShapeType<M[K]>;
} & { readonly [K in OptionalKeys<M>]?: Exclude<ShapeType<M[K]>, undefined> };

export interface ObjectOptions<T> {
  /** Not an object, or a leaf member wrong: reported at the object, in these words (else at the member, in its). */
  readonly reason?: string;
  /** Rules across members, once each member has its shape. */
  readonly refine?: (value: T, at: string, ctx: CheckContext) => Check;
}

/** An object with these members, checked in this order. */
export function object<M extends Members>(members: M, options: ObjectOptions<ObjectOf<M>> = {}): Shape<ObjectOf<M>> {
  const whole = options.reason;
  return {
    check(v, at, ctx) {
      if (!isPlainObject(v)) return bad(at, whole ?? "expected an object");
      for (const key of Object.keys(members)) {
        const member = members[key]!;
        const r = member.check(v[key], `${at}/${key}`, ctx);
        if (!r.ok) return whole !== undefined && member.leaf === true ? bad(at, whole) : r;
      }
      return options.refine === undefined ? OK : options.refine(v as ObjectOf<M>, at, ctx);
    },
  };
}

/** One of several object shapes told apart by a member (a union's rule by `by`). */
export function variant<V extends Readonly<Record<string, Shape<object>>>>(
  by: string,
  variants: V,
  reasons: { readonly notObject: string; readonly unknown: string },
): Shape<{ [K in keyof V]: { readonly by: K } & ShapeType<V[K]> }[keyof V]> {
  return {
    check(v, at, ctx) {
      if (!isPlainObject(v)) return bad(at, reasons.notObject);
      const key = v[by];
      if (typeof key !== "string" || !Object.hasOwn(variants, key)) return bad(at, reasons.unknown);
      return variants[key]!.check(v, at, ctx);
    },
  };
}

/** The type a shape describes, its child nodes being `N`. */
export type Infer<S, N> = S extends Shape<infer T> ? Resolve<T, N> : never;

type Resolve<T, N> = T extends ChildNode
  ? N
  : T extends JsonValue
    ? T
    : T extends readonly (infer E)[]
      ? readonly Resolve<E, N>[]
      : T extends object
        ? { readonly [K in keyof T]: Resolve<T[K], N> }
        : T;
