//! UTF-8 helpers: byte length without allocation, byte-bounded truncation, byte-order compare.

const NON_ASCII = /[^\x00-\x7f]/;

/** Number of bytes `s` occupies in UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8ByteLength(s: string): number {
  // Fast path: a native scan; ASCII text is one byte per UTF-16 unit.
  if (!NON_ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Ellipsis appended to truncated strings. */
export const ELLIPSIS = "…";

/**
 * Truncates `s` so its UTF-8 encoding fits `maxBytes`, appending "…" when cut. Never splits a
 * surrogate pair.
 */
export function truncateUtf8(s: string, maxBytes: number): string {
  if (s.length <= maxBytes / 3 || utf8ByteLength(s) <= maxBytes) return s;
  const budget = Math.max(0, maxBytes - 3);
  let n = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    let w = 1;
    let step = 1;
    if (c >= 0x80 && c < 0x800) w = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        w = 4;
        step = 2;
      } else w = 3;
    } else if (c >= 0x800) w = 3;
    if (n + w > budget) break;
    n += w;
    i += step;
  }
  return s.slice(0, i) + ELLIPSIS;
}

/** Compares two strings in UTF-8 byte order (which is code-point order). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Any whitespace that collapsing would change: leading, trailing, doubled, or not a space. */
const UNCOLLAPSED = /^\s|\s$|\s\s|[^\S ]/;

/** Collapses runs of whitespace to one space and trims. */
export function collapseWhitespace(s: string): string {
  // Most text is already collapsed: a test allocates nothing, a replace always does.
  if (!UNCOLLAPSED.test(s)) return s;
  return s.replace(/\s+/g, " ").trim();
}
