//! A fast 53-bit string hash (two multiplicative 32-bit lanes) used for semantic node hashes.

function finish(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Hashes `s` to a non-negative integer below 2^53. */
export function hash53(s: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  return finish(h1, h2);
}

/**
 * `hash53(s)` and the UTF-8 size of `s` (as `utf8ByteLength` counts it) in one pass: a node
 * record's JSON needs both, and reading it once instead of twice is most of their cost.
 */
export function hashWithUtf8Length(s: string): { hash: number; bytes: number } {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let bytes = 0;
  // Set after a high surrogate that starts a pair: its low half adds no bytes (the pair is 4).
  let pairLow = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
    if (c < 0x80) bytes += 1;
    else if (pairLow) pairLow = false;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      pairLow = d >= 0xdc00 && d <= 0xdfff;
      bytes += pairLow ? 4 : 3;
    } else bytes += 3;
  }
  return { hash: finish(h1, h2), bytes };
}
