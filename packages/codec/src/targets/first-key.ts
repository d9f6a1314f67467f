/**
 * OpenAI's first-key rule, undocumented but enforced: "Invalid schema: Objects
 * provided via 'anyOf' must not share identical first keys. Consider adding a
 * discriminator key or rearranging the properties to ensure the first key is
 * unique." Read here as: the object branches of one `anyOf` (references and
 * nested `anyOf` looked through) are told apart at their first member, that is
 * the first of `properties` and the first of `required` (one write-up names
 * both). Two branches pass when their first members differ in name, or share
 * a name held to a constant that differs (presence tags: `state` is "absent"
 * in one branch, "present" in the other; union tags: `branch` is 0, 1, ...).
 *
 * An `anyOf` that already passes is left as it is, so the tag forms never
 * change. Otherwise members are reordered, never renamed or removed: first a
 * member every branch holds to a different constant (a discriminator) goes
 * first in each; failing that, each branch leads with a member whose name no
 * other branch leads with. Member order is the wire's alone: the plan, the
 * encoder and the decoder read members by name, so nothing else changes.
 * Where neither works (branches with the same member names and no constant
 * telling them apart) the wire is left and the site reported.
 *
 * Two readings of the rule are not confirmed anywhere: that branches may share
 * a first member name when its constants differ, and that the rule sees a
 * constant behind a `$ref`. The second is never needed: wherever branches
 * share a first member, its schema is written in place, not referenced (the
 * same schema, so the same values). The first is what the presence and union
 * tag forms rest on; `firstKeyReadings` says where a wire depends on it.
 */
import { canonicalJson, isPlainObject, type JsonObject, type JsonValue, setOwn } from "../json.js";
import { defName, subschemas } from "./walk.js";

/** An anyOf whose object branches could not be told apart at the first member by reordering. */
export interface FirstKeyClash {
  /** JSON Pointer to the `anyOf`'s schema in the wire. */
  readonly path: string;
  /** The member name the branches would share first. */
  readonly member: string;
}

export interface OrderedWire {
  readonly wire: JsonObject;
  readonly clashes: readonly FirstKeyClash[];
}

/** References followed to a definition: aliases of aliases end somewhere. */
const MAX_HOPS = 16;

/** The wire with the object branches of every `anyOf` leading with members that tell them apart. */
export function orderFirstKeys(wire: JsonObject): OrderedWire {
  // A copy whose definitions are shared by reference: reordering one reorders every use of it.
  const copy = structuredClone(wire);
  const defs = isPlainObject(copy.$defs) ? (copy.$defs as JsonObject) : {};
  /** First members already fixed by an earlier anyOf the object is a branch of. */
  const pinned = new Map<JsonObject, string>();
  const clashes: FirstKeyClash[] = [];
  for (const site of anyOfSites(copy)) {
    const objects = objectBranches(defs, site.anyOf);
    if (objects.length < 2) continue;
    const choice = passing(objects, defs) ?? discriminator(objects, defs, pinned) ?? distinctNames(objects, pinned);
    if (choice === undefined) {
      clashes.push({ path: site.path, member: firstMember(objects[0]!) ?? "" });
      continue;
    }
    objects.forEach((o, i) => {
      lead(o, choice[i]!);
      pinned.set(o, choice[i]!);
    });
  }
  inlineSharedFirst(copy, defs);
  return { wire: copy, clashes };
}

/** An undocumented reading of the first-key rule that a wire depends on. */
export type FirstKeyReading =
  /** Branches share a first member name and are told apart by its constants alone. */
  | "shared-name-constants"
  /** ... and a branch's constant is behind a `$ref` (compiled wires no longer do this). */
  | "constant-behind-ref";

export interface FirstKeyReadingSite {
  readonly reading: FirstKeyReading;
  /** JSON Pointer to the `anyOf`'s schema in the wire. */
  readonly path: string;
  /** The first member name the branches share. */
  readonly member: string;
}

/** Where a wire that passes the rule passes it only by a reading no documentation confirms. */
export function firstKeyReadings(wire: JsonObject): FirstKeyReadingSite[] {
  const defs = isPlainObject(wire.$defs) ? (wire.$defs as JsonObject) : {};
  const out: FirstKeyReadingSite[] = [];
  for (const site of anyOfSites(wire)) {
    const objects = objectBranches(defs, site.anyOf);
    if (objects.length < 2 || passing(objects, defs) === undefined) continue;
    const shared = sharedLeading(objects);
    const [member] = shared;
    if (member === undefined) continue;
    const behindRef = objects.some((o) => [...shared].some((n) => leading(o).has(n) && isRef(memberSchema(o, n))));
    out.push({ reading: behindRef ? "constant-behind-ref" : "shared-name-constants", path: site.path, member });
  }
  return out;
}

/**
 * The first members several branches of one `anyOf` lead with, written in place where they were
 * references (to a constant, in passing wires): the schema is the same, only where it is written
 * changes. Definitions left unused by it are dropped.
 */
function inlineSharedFirst(wire: JsonObject, defs: JsonObject): void {
  const inlined = new Set<string>();
  for (const site of anyOfSites(wire)) {
    const objects = objectBranches(defs, site.anyOf);
    if (objects.length < 2) continue;
    for (const name of sharedLeading(objects)) {
      for (const o of objects) {
        const member = memberSchema(o, name);
        if (!leading(o).has(name) || member === undefined || !isRef(member)) continue;
        const target = resolve(defs, member);
        if (isRef(target)) continue;
        for (let s: JsonObject = member; isRef(s); s = defs[defName(s.$ref as string)!] as JsonObject)
          inlined.add(defName(s.$ref as string)!);
        setOwn(o.properties as JsonObject, name, structuredClone(target));
      }
    }
  }
  if (inlined.size === 0) return;
  const used = referencedDefs(wire);
  for (const name of inlined) if (!used.has(name)) delete defs[name];
  if (Object.keys(defs).length === 0 && isPlainObject(wire.$defs)) delete wire.$defs;
}

/** The definitions some `$ref` of the wire names (from anywhere, definitions included). */
function referencedDefs(wire: JsonObject): Set<string> {
  const out = new Set<string>();
  const walk = (schema: JsonObject): void => {
    if (typeof schema.$ref === "string") {
      const name = defName(schema.$ref);
      if (name !== undefined) out.add(name);
    }
    for (const [sub] of subschemas(schema)) walk(sub);
  };
  walk(wire);
  return out;
}

/** Leading member names that more than one branch leads with. */
function sharedLeading(objects: readonly JsonObject[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const o of objects) {
    for (const name of leading(o)) {
      if (seen.has(name)) shared.add(name);
      seen.add(name);
    }
  }
  return shared;
}

function memberSchema(o: JsonObject, name: string): JsonObject | undefined {
  const properties = o.properties;
  if (!isPlainObject(properties) || !Object.hasOwn(properties, name)) return undefined;
  const member = (properties as JsonObject)[name];
  return isPlainObject(member) ? (member as JsonObject) : undefined;
}

function isRef(schema: JsonObject | undefined): schema is JsonObject {
  return schema !== undefined && typeof schema.$ref === "string";
}

/**
 * Whether some order of members tells these `anyOf` branches apart at the first member, leaving
 * aside what other unions sharing a definition need of its order (`defs`: the wire's definitions).
 */
export function separable(anyOf: readonly JsonValue[], defs: JsonObject): boolean {
  const objects = objectBranches(defs, anyOf);
  if (objects.length < 2) return true;
  const none = new Map<JsonObject, string>();
  return (passing(objects, defs) ?? discriminator(objects, defs, none) ?? distinctNames(objects, none)) !== undefined;
}

/** The clashes left in a wire as it stands (checkToolSet's and check's question). */
export function firstKeyClashes(wire: JsonObject): FirstKeyClash[] {
  const defs = isPlainObject(wire.$defs) ? (wire.$defs as JsonObject) : {};
  const out: FirstKeyClash[] = [];
  for (const site of anyOfSites(wire)) {
    const objects = objectBranches(defs, site.anyOf);
    if (objects.length >= 2 && passing(objects, defs) === undefined)
      out.push({ path: site.path, member: sharedFirst(objects, defs) ?? "" });
  }
  return out;
}

export function describeClash(c: FirstKeyClash, tool: string): string {
  return `${tool}: the object branches of the anyOf at ${c.path || "/"} share their first member${c.member !== "" ? ` ${c.member}` : ""} with no constant telling them apart, and no order of their members makes the first members differ. OpenAI refuses this ("Objects provided via 'anyOf' must not share identical first keys"; the rule is not documented, the error text is public)`;
}

interface Site {
  readonly path: string;
  readonly anyOf: readonly JsonValue[];
}

function anyOfSites(wire: JsonObject): Site[] {
  const out: Site[] = [];
  const walk = (schema: JsonObject, path: string): void => {
    if (Array.isArray(schema.anyOf)) out.push({ path, anyOf: schema.anyOf });
    for (const [sub, steps] of subschemas(schema)) walk(sub, path + steps);
  };
  walk(wire, "");
  return out;
}

function resolve(defs: JsonObject, schema: JsonObject): JsonObject {
  let s = schema;
  for (let hops = 0; typeof s.$ref === "string" && hops < MAX_HOPS; hops++) {
    const name = defName(s.$ref);
    const next = name !== undefined && Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (!isPlainObject(next)) return s;
    s = next as JsonObject;
  }
  return s;
}

/** The object schemas with members an anyOf offers: references and nested anyOf looked through. */
function objectBranches(defs: JsonObject, branches: readonly JsonValue[], seen = new Set<JsonObject>()): JsonObject[] {
  const out: JsonObject[] = [];
  for (const b of branches) {
    if (!isPlainObject(b)) continue;
    const s = resolve(defs, b as JsonObject);
    if (seen.has(s)) continue;
    seen.add(s);
    if (members(s).length > 0) out.push(s);
    else if (Array.isArray(s.anyOf)) out.push(...objectBranches(defs, s.anyOf, seen));
  }
  return out;
}

function members(o: JsonObject): string[] {
  return isPlainObject(o.properties) ? Object.keys(o.properties) : [];
}

function firstMember(o: JsonObject): string | undefined {
  return members(o)[0];
}

/** An array-index name always comes first in a JavaScript object, so no other name can be moved before it. */
const INDEX = /^(0|[1-9][0-9]{0,8})$/;

/** The members that lead a branch: the first property and the first required name. */
function leading(o: JsonObject): Set<string> {
  const out = new Set<string>();
  const first = firstMember(o);
  if (first !== undefined) out.add(first);
  if (Array.isArray(o.required) && typeof o.required[0] === "string") out.add(o.required[0]);
  return out;
}

/** The value a member is held to, when it is one value (const, or an enum of one). */
function constantOf(defs: JsonObject, o: JsonObject, name: string): string | undefined {
  const member = (o.properties as JsonObject)[name];
  if (!isPlainObject(member)) return undefined;
  const s = resolve(defs, member as JsonObject);
  if (s.const !== undefined) return canonicalJson(s.const);
  if (Array.isArray(s.enum) && s.enum.length === 1) return canonicalJson(s.enum[0]);
  return undefined;
}

/** Whether two branches are told apart at their leading members. */
function apart(defs: JsonObject, a: JsonObject, b: JsonObject): boolean {
  const lb = leading(b);
  for (const name of leading(a)) {
    if (!lb.has(name)) continue;
    const x = constantOf(defs, a, name);
    const y = constantOf(defs, b, name);
    if (x === undefined || y === undefined || x === y) return false;
  }
  return true;
}

/** The current first members, when the branches already pass. */
function passing(objects: readonly JsonObject[], defs: JsonObject): string[] | undefined {
  for (let i = 0; i < objects.length; i++) {
    for (let j = i + 1; j < objects.length; j++) if (!apart(defs, objects[i]!, objects[j]!)) return undefined;
  }
  // Passing with required's first entry off the first property would be reordered by lead() anyway.
  return objects.every((o) => leading(o).size === 1) ? objects.map((o) => firstMember(o)!) : undefined;
}

function sharedFirst(objects: readonly JsonObject[], defs: JsonObject): string | undefined {
  for (let i = 0; i < objects.length; i++) {
    for (let j = i + 1; j < objects.length; j++) {
      if (apart(defs, objects[i]!, objects[j]!)) continue;
      const lb = leading(objects[j]!);
      return [...leading(objects[i]!)].find((n) => lb.has(n));
    }
  }
  return undefined;
}

/** Names a branch may lead with: its required members (a member left out cannot tell anything apart). */
function candidates(o: JsonObject): string[] {
  if (!Array.isArray(o.required)) return [];
  const required = new Set(o.required.filter((r): r is string => typeof r === "string"));
  const names = members(o);
  // Index-like names lead whatever the order: the first of them is the only one that can lead.
  const among = names.some((n) => INDEX.test(n)) ? names.slice(0, 1) : names;
  return among.filter((n) => required.has(n));
}

/** A member every branch requires and holds to a constant of its own. */
function discriminator(
  objects: readonly JsonObject[],
  defs: JsonObject,
  pinned: ReadonlyMap<JsonObject, string>,
): string[] | undefined {
  for (const name of candidates(objects[0]!)) {
    const values = new Set<string>();
    const usable = objects.every((o) => {
      const pin = pinned.get(o);
      if ((pin !== undefined && pin !== name) || !candidates(o).includes(name)) return false;
      const v = constantOf(defs, o, name);
      if (v === undefined || values.has(v)) return false;
      values.add(v);
      return true;
    });
    if (usable) return objects.map(() => name);
  }
  return undefined;
}

/**
 * A leading member per branch, no two alike (bipartite matching, each branch
 * trying its current first member first, so as little as possible moves).
 */
function distinctNames(objects: readonly JsonObject[], pinned: ReadonlyMap<JsonObject, string>): string[] | undefined {
  const options = objects.map((o) => {
    const pin = pinned.get(o);
    if (pin !== undefined) return [pin];
    const names = candidates(o);
    const first = firstMember(o);
    return first !== undefined && names.includes(first) ? [first, ...names.filter((n) => n !== first)] : names;
  });
  const holder = new Map<string, number>();
  const place = (i: number, visited: Set<string>): boolean => {
    // A free name first, so a branch that already leads apart keeps its order.
    const free = options[i]!.find((name) => !holder.has(name) && !visited.has(name));
    if (free !== undefined) {
      holder.set(free, i);
      return true;
    }
    for (const name of options[i]!) {
      if (visited.has(name)) continue;
      visited.add(name);
      const other = holder.get(name);
      if (other === undefined || place(other, visited)) {
        holder.set(name, i);
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < objects.length; i++) if (!place(i, new Set())) return undefined;
  const out: string[] = new Array(objects.length);
  for (const [name, i] of holder) out[i] = name;
  return out;
}

/** Move a member to the front of `properties` and of `required`, in place; the rest keep their order. */
function lead(o: JsonObject, name: string): void {
  const properties = o.properties as JsonObject;
  if (Object.keys(properties)[0] !== name) {
    const reordered: JsonObject = {};
    setOwn(reordered, name, properties[name]!);
    for (const [k, v] of Object.entries(properties)) if (k !== name) setOwn(reordered, k, v);
    o.properties = reordered;
  }
  if (Array.isArray(o.required) && o.required.includes(name) && o.required[0] !== name) {
    o.required = [name, ...o.required.filter((r) => r !== name)];
  }
}
