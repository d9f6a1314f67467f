/**
 * The member names of one big object, checked for a repeat all at once when
 * the object closes (or the scan stops inside it), not one by one.
 *
 * Looking each name up in a hash table as large as the object reads memory
 * at random: past the processor's caches every name costs more as objects
 * grow (in a Set, 350,000 names took 8 to 14 times as long as 87,000), so a
 * refusal's time grew faster than the text. Here each name is a number, its
 * hash and its place packed in one double; sorting them brings equal hashes
 * together in sequential passes, and only those are compared as text.
 */

/** Members with one hash beyond this many are compared through a Set: hashes an adversary made collide stay linear. */
const PAIRWISE = 16;

export class NameLog {
  private hashes = new Int32Array(64);
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private keys = new Float64Array(0);
  length = 0;

  /** Emptied for the next object (a scanner keeps one log per depth: typed arrays cost more to make than to fill). */
  clear(): void {
    this.length = 0;
  }

  /** Records the next member: its name's hash (31 bits) and its span (`start` negated, ~start, when it has escapes). */
  add(hash: number, start: number, end: number): void {
    const at = this.length;
    if (at === this.hashes.length) this.grow();
    this.hashes[at] = hash;
    this.starts[at] = start;
    this.ends[at] = end;
    this.length = at + 1;
  }

  start(place: number): number {
    return this.starts[place]!;
  }

  end(place: number): number {
    return this.ends[place]!;
  }

  /**
   * The place of the first member whose name an earlier member has, or -1.
   * `same` compares two members' names; `nameOf` gives one decoded.
   */
  firstRepeat(same: (a: number, b: number) => boolean, nameOf: (place: number) => string): number {
    const n = this.length;
    // A key is a hash and a place in one double's 53 exact bits: the place's bits first, the hash's top bits in the
    // rest (all 31 up to 2^22 members), so that sorting orders by hash, then place.
    const placeBits = Math.max(1, Math.ceil(Math.log2(n)));
    const shift = Math.max(0, 31 - (53 - placeBits));
    const span = 2 ** placeBits;
    if (this.keys.length < n) this.keys = new Float64Array(this.hashes.length);
    const keys = this.keys.subarray(0, n);
    for (let k = 0; k < n; k++) keys[k] = (this.hashes[k]! >>> shift) * span + k;
    keys.sort();
    let first = -1;
    for (let a = 0; a < n; ) {
      const hash = Math.floor(keys[a]! / span);
      let b = a + 1;
      while (b < n && Math.floor(keys[b]! / span) === hash) b++;
      if (b - a > 1) {
        const repeat = repeatIn(keys, span, a, b, same, nameOf);
        if (repeat >= 0 && (first < 0 || repeat < first)) first = repeat;
      }
      a = b;
    }
    return first;
  }

  private grow(): void {
    const size = this.hashes.length * 2;
    const hashes = new Int32Array(size);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const starts = new Int32Array(size);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Int32Array(size);
    ends.set(this.ends);
    this.ends = ends;
  }
}

/** Within keys[a..b) (one hash, places ascending): the first place whose name an earlier one has, or -1. */
function repeatIn(
  keys: Float64Array,
  span: number,
  a: number,
  b: number,
  same: (x: number, y: number) => boolean,
  nameOf: (place: number) => string,
): number {
  const placeAt = (k: number) => keys[k]! % span;
  if (b - a <= PAIRWISE) {
    for (let k = a + 1; k < b; k++) for (let m = a; m < k; m++) if (same(placeAt(m), placeAt(k))) return placeAt(k);
    return -1;
  }
  const seen = new Set<string>();
  for (let k = a; k < b; k++) {
    const name = nameOf(placeAt(k));
    if (seen.has(name)) return placeAt(k);
    seen.add(name);
  }
  return -1;
}

/** FNV-1a of UTF-16 code units, its top 31 bits. */
export function hashName(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h >>> 1;
}
