//! Base64 VLQ decoding as used by Source Map v3 `mappings`.

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) DECODE[BASE64.charCodeAt(i)] = i;

/** Thrown for malformed VLQ input. */
export class VlqError extends Error {}

/**
 * Decodes the VLQ numbers of one segment, `text.slice(start, end)`, appending them to `out`.
 * Returns how many numbers were decoded.
 */
export function decodeVlqSegment(text: string, start: number, end: number, out: number[]): number {
  let count = 0;
  let value = 0;
  let shift = 0;
  let pending = false;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    const digit = code < 128 ? DECODE[code] : -1;
    if (digit === undefined || digit < 0) throw new VlqError(`invalid base64 VLQ character "${text[i]}" at ${i}`);
    if (shift > 30) throw new VlqError(`VLQ value too large at ${i}`);
    value += (digit & 31) * 2 ** shift;
    pending = true;
    if ((digit & 32) === 0) {
      const negative = (value & 1) === 1;
      const magnitude = Math.floor(value / 2);
      out.push(negative ? -magnitude : magnitude);
      count++;
      value = 0;
      shift = 0;
      pending = false;
    } else {
      shift += 5;
    }
  }
  if (pending) throw new VlqError("VLQ segment ends in the middle of a number");
  return count;
}

/** Encodes numbers as base64 VLQ (used by tests and tools that build maps). */
export function encodeVlq(values: readonly number[]): string {
  let out = "";
  for (const v of values) {
    let n = v < 0 ? -v * 2 + 1 : v * 2;
    do {
      let digit = n & 31;
      n = Math.floor(n / 32);
      if (n > 0) digit |= 32;
      out += BASE64[digit];
    } while (n > 0);
  }
  return out;
}
