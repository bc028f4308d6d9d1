import { describe, expect, it } from "vitest";
import { collapseWhitespace, compareUtf8, truncateUtf8, utf8ByteLength } from "./utf8";

describe("utf8", () => {
  it("counts bytes like TextEncoder", () => {
    for (const s of ["", "abc", "é", "中文", "😀x", "a\u{10FFFF}"]) expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).length);
  });
  it("counts lone surrogates of both halves as U+FFFD, like TextEncoder", () => {
    const pool = ["a", "Z", "{", '"', "\\", "é", "ß", "中", "€", "😀", "\u{10FFFF}", "\ud800", "\udc00", "\ud83d", "x\udfff"];
    let state = 1;
    for (let seed = 0; seed < 2000; seed++) {
      let s = "";
      for (let i = 0; i < seed % 40; i++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        s += pool[state % pool.length];
      }
      expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).length);
    }
  });
  it("truncates within the byte budget without splitting pairs", () => {
    expect(truncateUtf8("hello", 16)).toBe("hello");
    const t = truncateUtf8("😀😀😀😀😀😀", 10);
    expect(utf8ByteLength(t)).toBeLessThanOrEqual(10);
    expect(t).toBe("😀…");
    expect(truncateUtf8("abcdefghijklmnopqrstuvwxyz", 16)).toBe("abcdefghijklm…");
  });
  it("orders by UTF-8 bytes (code points), not UTF-16 units", () => {
    const a = "\uFF5E";
    const b = "😀";
    expect(a < b).toBe(false); // UTF-16 order disagrees
    expect(compareUtf8(a, b)).toBe(-1);
    expect(["n9", "n10", "n1"].sort(compareUtf8)).toEqual(["n1", "n10", "n9"]);
  });
  it("collapses whitespace exactly like replace + trim, with or without the fast path", () => {
    const cases = ["", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb", "a\u00a0b", "\u2003a", "a\u3000", "Row 5", "x \n y", "\ufeffa", "a\u200bb"];
    for (const s of cases) expect(collapseWhitespace(s)).toBe(s.replace(/\s+/g, " ").trim());
  });
});
