/**
 * UTF-8 helpers in plain code, the same on every runtime (no Buffer): the
 * byte length that the limits count, and the error path's offsets.
 */
import { isHighSurrogate, isLowSurrogate } from "./chars.js";

/**
 * Bytes of s encoded as UTF-8, counted as Buffer.byteLength and TextEncoder
 * count them: a surrogate pair is 4 bytes, a lone surrogate is the 3-byte
 * replacement character it is encoded as.
 */
export function utf8Length(s: string): number {
  const n = s.length;
  // One byte per code unit, then what each unit past ASCII adds.
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      bytes += 1;
      continue;
    }
    // Three bytes, or a pair's four over two units (the low surrogate is skipped).
    bytes += 2;
    if (c <= 0xdbff && c >= 0xd800 && i + 1 < n) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return bytes;
}

/**
 * Offset of the first byte that starts an ill-formed UTF-8 sequence, by the
 * table of well-formed sequences in Unicode §3.9 (no overlongs, no surrogates,
 * nothing above U+10FFFF); -1 if every sequence is well-formed.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length =
      lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || !continuationsOk(bytes, i, lead, length)) return i;
    i += length;
  }
  return -1;
}

function continuationsOk(bytes: Uint8Array, i: number, lead: number, length: number): boolean {
  // The second byte's range is narrowed for some leads to exclude overlongs, surrogates and > U+10FFFF.
  const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
  const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
  const second = bytes[i + 1];
  if (second === undefined || second < low || second > high) return false;
  for (let k = 2; k < length; k++) {
    const b = bytes[i + k];
    if (b === undefined || b < 0x80 || b > 0xbf) return false;
  }
  return true;
}

/** UTF-8 byte offset of the UTF-16 index `index` in a well-formed prefix of s. */
export function utf8Offset(s: string, index: number): number {
  let bytes = 0;
  for (let i = 0; i < index && i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < index) {
      // A surrogate pair is one 4-byte character.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Whether a text that grows by pieces is past `max` UTF-8 bytes, as
 * utf8Length counts the whole (a surrogate pair split between pieces is 4
 * bytes). Counted only once it could be (a UTF-16 code unit is at most 3
 * bytes): then the whole text once, then each piece; until then a push costs
 * one compare. For readers that keep a stream's text (stream/decoder.ts,
 * providers/shared.ts), bounded by the limit decode holds texts to.
 */
export class Utf8Count {
  private bytes = -1;
  private endsHigh = false;

  constructor(private readonly max: number) {}

  /** The text grew by `piece` to `units` code units (`whole` gives it all, the piece included): whether it is now past. */
  past(units: number, piece: string, whole: () => string): boolean {
    if (units * 3 <= this.max) return false;
    if (this.bytes < 0) {
      const text = whole();
      this.bytes = utf8Length(text);
      this.endsHigh = isHighSurrogate(text.charCodeAt(text.length - 1));
    } else if (piece.length > 0) {
      // Each half of a pair split between pieces was counted as a lone surrogate (3 bytes); the pair is 4.
      this.bytes += utf8Length(piece) - (this.endsHigh && isLowSurrogate(piece.charCodeAt(0)) ? 2 : 0);
      this.endsHigh = isHighSurrogate(piece.charCodeAt(piece.length - 1));
    }
    return this.bytes > this.max;
  }
}
