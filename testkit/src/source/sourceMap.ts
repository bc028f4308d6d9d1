//! Flat Source Map v3: parsing (sources, names, mappings; `sourcesContent` is dropped, nothing is
//! ever fetched) and generated → original position lookup.
import { TestKitError } from "../errors";
import { decodeVlqSegment, VlqError } from "./vlq";

/** Largest accepted `mappings` string (characters). */
export const MAX_MAPPINGS_LENGTH = 16 * 1024 * 1024;

/** A parsed flat source map. Each line is packed as [genColumn, source, line, column, name] × n. */
export interface ParsedSourceMap {
  file: string | undefined;
  sources: string[];
  names: string[];
  lines: Int32Array[];
}

/** An original position; line and column are 1-based. */
export interface OriginalPosition {
  source: string;
  line: number;
  column: number;
  name?: string;
}

function isStringArray(v: unknown): v is Array<string | null> {
  return Array.isArray(v) && v.every((x) => typeof x === "string" || x === null);
}

function joinRoot(root: string, source: string): string {
  if (root === "" || /^[a-z][a-z0-9+.-]*:/i.test(source) || source.startsWith("/")) return source;
  return root.endsWith("/") ? root + source : `${root}/${source}`;
}

/** Parses a flat Source Map v3 object or JSON string. Indexed maps (`sections`) are rejected. */
export function parseSourceMap(input: unknown): ParsedSourceMap {
  let raw: unknown = input;
  if (typeof raw === "string") {
    try {
      raw = JSON.parse(raw);
    } catch {
      throw new TestKitError("invalid_source_map", "map is not valid JSON");
    }
  }
  if (typeof raw !== "object" || raw === null) throw new TestKitError("invalid_source_map", "map must be an object");
  const map = raw as Record<string, unknown>;
  if (map.sections !== undefined) {
    throw new TestKitError("invalid_source_map", "indexed source maps (sections) are not supported; register each flat map");
  }
  if (map.version !== 3) throw new TestKitError("invalid_source_map", `version must be 3, got ${String(map.version)}`);
  if (typeof map.mappings !== "string") throw new TestKitError("invalid_source_map", "mappings must be a string");
  if (map.mappings.length > MAX_MAPPINGS_LENGTH) throw new TestKitError("invalid_source_map", "mappings is too large");
  if (!isStringArray(map.sources)) throw new TestKitError("invalid_source_map", "sources must be an array of strings");
  const names = map.names === undefined ? [] : map.names;
  if (!isStringArray(names)) throw new TestKitError("invalid_source_map", "names must be an array of strings");
  const root = typeof map.sourceRoot === "string" ? map.sourceRoot : "";
  const sources = map.sources.map((s) => joinRoot(root, s ?? ""));
  const lines = decodeMappings(map.mappings, sources.length, names.length);
  return {
    file: typeof map.file === "string" ? map.file : undefined,
    sources,
    names: names.map((n) => n ?? ""),
    lines,
  };
}

function decodeMappings(mappings: string, sourceCount: number, nameCount: number): Int32Array[] {
  const lines: Int32Array[] = [];
  let source = 0;
  let line = 0;
  let column = 0;
  let name = 0;
  const values: number[] = [];
  let segments: number[] = [];
  let pos = 0;
  const flushLine = () => {
    // Segments are ordered by generated column within a line; sort defensively for lookup.
    const count = segments.length / 5;
    const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => (segments[a * 5] ?? 0) - (segments[b * 5] ?? 0));
    const packed = new Int32Array(segments.length);
    order.forEach((from, to) => packed.set(segments.slice(from * 5, from * 5 + 5), to * 5));
    lines.push(packed);
    segments = [];
  };
  try {
    while (pos <= mappings.length) {
      let genColumn = 0;
      for (;;) {
        let end = pos;
        while (end < mappings.length && mappings[end] !== "," && mappings[end] !== ";") end++;
        if (end > pos) {
          values.length = 0;
          const n = decodeVlqSegment(mappings, pos, end, values);
          if (n !== 1 && n !== 4 && n !== 5) throw new TestKitError("invalid_source_map", `segment with ${n} fields`);
          genColumn += values[0] ?? 0;
          if (genColumn < 0) throw new TestKitError("invalid_source_map", "negative generated column");
          if (n === 1) segments.push(genColumn, -1, -1, -1, -1);
          else {
            source += values[1] ?? 0;
            line += values[2] ?? 0;
            column += values[3] ?? 0;
            if (source < 0 || source >= sourceCount || line < 0 || column < 0) {
              throw new TestKitError("invalid_source_map", "segment points outside sources");
            }
            let nameIndex = -1;
            if (n === 5) {
              name += values[4] ?? 0;
              if (name < 0 || name >= nameCount) throw new TestKitError("invalid_source_map", "segment points outside names");
              nameIndex = name;
            }
            segments.push(genColumn, source, line, column, nameIndex);
          }
        }
        pos = end + 1;
        if (end >= mappings.length || mappings[end] === ";") break;
      }
      flushLine();
      if (pos > mappings.length) break;
    }
  } catch (e) {
    if (e instanceof VlqError) throw new TestKitError("invalid_source_map", e.message);
    throw e;
  }
  return lines;
}

/**
 * Maps a generated position (1-based line and column) to the original position of the last
 * segment at or before it on that line, or null when unmapped.
 */
export function originalPositionFor(map: ParsedSourceMap, line: number, column: number): OriginalPosition | null {
  const segs = map.lines[line - 1];
  if (segs === undefined || segs.length === 0) return null;
  const col = column - 1;
  let lo = 0;
  let hi = segs.length / 5 - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((segs[mid * 5] ?? 0) <= col) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return null;
  const src = segs[found * 5 + 1] ?? -1;
  if (src < 0) return null;
  const out: OriginalPosition = {
    source: map.sources[src] ?? "",
    line: (segs[found * 5 + 2] ?? 0) + 1,
    column: (segs[found * 5 + 3] ?? 0) + 1,
  };
  const nameIndex = segs[found * 5 + 4] ?? -1;
  if (nameIndex >= 0) out.name = map.names[nameIndex] ?? "";
  return out;
}
