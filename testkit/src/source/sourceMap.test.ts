import { describe, expect, it } from "vitest";
import { decodeVlqSegment, encodeVlq } from "./vlq";
import { originalPositionFor, parseSourceMap } from "./sourceMap";
import { candidatesFor, normalizeFile } from "./mapping";

describe("vlq", () => {
  it("round-trips signed values", () => {
    const values = [0, 1, -1, 15, -16, 16, 1000, -123456, 2 ** 30 - 1];
    const text = encodeVlq(values);
    const out: number[] = [];
    expect(decodeVlqSegment(text, 0, text.length, out)).toBe(values.length);
    expect(out).toEqual(values);
  });
  it("decodes known segments and rejects junk", () => {
    const out: number[] = [];
    decodeVlqSegment("AAgBC", 0, 5, out);
    expect(out).toEqual([0, 0, 16, 1]);
    expect(() => decodeVlqSegment("A!", 0, 2, [])).toThrow(/invalid/);
    expect(() => decodeVlqSegment("g", 0, 1, [])).toThrow(/middle/);
  });
});

describe("source maps", () => {
  const map = {
    version: 3,
    file: "app.js",
    sourceRoot: "src",
    sources: ["a.tsx", "b.tsx"],
    names: ["App"],
    // line 1: col0→a 1:1; col4→a 10:3 name App. line 2: empty. line 3: col2→b 5:1
    mappings: `${encodeVlq([0, 0, 0, 0])},${encodeVlq([4, 0, 9, 2, 0])};;${encodeVlq([2, 1, -5, -2])}`,
    sourcesContent: ["never kept"],
  };
  it("parses flat maps and looks positions up", () => {
    const parsed = parseSourceMap(JSON.stringify(map));
    expect(parsed.sources).toEqual(["src/a.tsx", "src/b.tsx"]);
    expect(JSON.stringify(parsed)).not.toContain("never kept");
    expect(originalPositionFor(parsed, 1, 1)).toEqual({ source: "src/a.tsx", line: 1, column: 1 });
    expect(originalPositionFor(parsed, 1, 3)).toEqual({ source: "src/a.tsx", line: 1, column: 1 });
    expect(originalPositionFor(parsed, 1, 9)).toEqual({ source: "src/a.tsx", line: 10, column: 3, name: "App" });
    expect(originalPositionFor(parsed, 2, 1)).toBeNull();
    expect(originalPositionFor(parsed, 3, 1)).toBeNull();
    expect(originalPositionFor(parsed, 3, 3)).toEqual({ source: "src/b.tsx", line: 5, column: 1 });
    expect(originalPositionFor(parsed, 9, 1)).toBeNull();
  });
  it("rejects indexed maps and malformed input", () => {
    expect(() => parseSourceMap({ version: 3, sections: [] })).toThrow(/sections/);
    expect(() => parseSourceMap({ version: 2, sources: [], mappings: "" })).toThrow(/version/);
    expect(() => parseSourceMap("{")).toThrow(/JSON/);
    expect(() => parseSourceMap({ version: 3, sources: ["a"], mappings: "AEAA" })).toThrow(/outside/);
    expect(() => parseSourceMap({ version: 3, sources: ["a"], mappings: "AA" })).toThrow(/2 fields/);
  });
});

describe("candidates", () => {
  it("are unique by span, sorted by confidence and at most eight", () => {
    const hits = Array.from({ length: 12 }, (_, i) => ({
      owner: { registrationId: `b${i}`, origin: "boundary_hint" as const, span: { file: `f${i % 10}.tsx` } },
      level: i,
    }));
    const c = candidatesFor(hits, () => undefined);
    expect(c).toHaveLength(8);
    expect(c[0]).toMatchObject({ relation: "exact", confidence: 0.9 });
    expect(c.map((x) => x.confidence)).toEqual([...c.map((x) => x.confidence)].sort((a, b) => b - a));
    expect(new Set(c.map((x) => x.span.file)).size).toBe(8);
  });
  it("normalizes generated files", () => {
    expect(normalizeFile("http://localhost:5173/assets/app.js?v=2#x")).toBe("assets/app.js");
    expect(normalizeFile("./assets/app.js")).toBe("assets/app.js");
  });
});
