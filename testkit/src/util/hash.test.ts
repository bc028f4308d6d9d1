import { describe, expect, it } from "vitest";
import { hash53, hashWithUtf8Length } from "./hash";
import { utf8ByteLength } from "./utf8";

/** Random strings over ASCII, 2- and 3-byte characters, pairs and lone surrogates of both halves. */
function randomText(seed: number): string {
  const pool = ["a", "Z", "{", '"', "\\", "é", "ß", "中", "€", "😀", "\u{10FFFF}", "\ud800", "\udc00", "\ud83d", "x\udfff"];
  let state = seed * 2654435761 + 1;
  let out = "";
  const length = seed % 40;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += pool[state % pool.length];
  }
  return out;
}

describe("hashWithUtf8Length", () => {
  it("gives hash53's hash and utf8ByteLength's size for any string", () => {
    for (let seed = 0; seed < 2000; seed++) {
      const s = randomText(seed);
      expect(hashWithUtf8Length(s)).toEqual({ hash: hash53(s), bytes: utf8ByteLength(s) });
    }
  });

  it("counts like an encoder for well-formed text", () => {
    for (const s of ["", "abc", "é", "中文", "😀x", "a\u{10FFFF}", "😀😀"]) {
      expect(hashWithUtf8Length(s).bytes).toBe(new TextEncoder().encode(s).length);
    }
  });
});
