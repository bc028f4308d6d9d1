//! Source candidates for a node, from boundary hints, framework-adapter registrations and
//! registered flat source maps. At most eight, unique by span, sorted by confidence. Evidence for
//! routing a repair only; grants no file authority.
import type { SourceCandidate, SourceMapping, SourceSpan } from "../protocol";
import { SOURCE_MAPPING_PROTOCOL } from "../version";
import { originalPositionFor, type ParsedSourceMap } from "./sourceMap";

/** Most candidates per node. */
export const MAX_CANDIDATES = 8;

/** A registration that claims an element. */
export interface SourceOwner {
  registrationId: string;
  origin: "framework_adapter" | "boundary_hint";
  span: SourceSpan;
}

/** An owner met on the way from a node up to the root; `level` 0 is the node itself. */
export interface OwnerHit {
  owner: SourceOwner;
  level: number;
}

/** Looks up a registered source map by generated file. */
export type SourceMapLookup = (generatedFile: string) => ParsedSourceMap | undefined;

/** Normalizes a file path or URL for matching generated files (drops origin, query, hash). */
export function normalizeFile(file: string): string {
  let f = file.trim();
  const q = f.search(/[?#]/);
  if (q >= 0) f = f.slice(0, q);
  f = f.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  f = f.replace(/\\/g, "/").replace(/^\.\//, "");
  return f.startsWith("/") ? f.slice(1) : f;
}

function baseConfidence(origin: SourceOwner["origin"], level: number): number {
  const exact = origin === "framework_adapter" ? 0.95 : 0.9;
  if (level === 0) return exact;
  return Math.max(0.1, (origin === "framework_adapter" ? 0.7 : 0.6) - 0.1 * (level - 1));
}

function spanKey(s: SourceSpan): string {
  return `${s.file}\u0000${s.line ?? ""}\u0000${s.column ?? ""}\u0000${s.endLine ?? ""}\u0000${s.endColumn ?? ""}`;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Builds the candidates for one node from the owners on its ancestor chain. */
export function candidatesFor(hits: readonly OwnerHit[], lookupMap: SourceMapLookup): SourceCandidate[] {
  const all: SourceCandidate[] = [];
  for (const { owner, level } of hits) {
    const relation = level === 0 ? "exact" : "ancestor";
    const confidence = baseConfidence(owner.origin, level);
    const map = lookupMap(normalizeFile(owner.span.file));
    if (map !== undefined && owner.span.line !== undefined) {
      const start = originalPositionFor(map, owner.span.line, owner.span.column ?? 1);
      if (start !== null) {
        const span: SourceSpan = { file: start.source, line: start.line, column: start.column };
        if (owner.span.endLine !== undefined) {
          const end = originalPositionFor(map, owner.span.endLine, owner.span.endColumn ?? 1);
          if (end !== null && end.source === start.source) {
            span.endLine = end.line;
            span.endColumn = end.column;
          }
        }
        all.push({ span, generatedSpan: owner.span, confidence: round3(confidence), origin: "source_map", relation, registrationId: owner.registrationId });
      }
      all.push({ span: owner.span, confidence: round3(confidence * 0.5), origin: "generated", relation, registrationId: owner.registrationId });
    } else {
      all.push({ span: owner.span, confidence: round3(confidence), origin: owner.origin, relation, registrationId: owner.registrationId });
    }
  }
  all.sort((a, b) => b.confidence - a.confidence);
  const seen = new Set<string>();
  const out: SourceCandidate[] = [];
  for (const c of all) {
    const key = spanKey(c.span);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
    if (out.length === MAX_CANDIDATES) break;
  }
  return out;
}

/** Wraps candidates as a source-mapping record, or undefined when there are none. */
export function sourceMappingOf(candidates: SourceCandidate[]): SourceMapping | undefined {
  return candidates.length === 0 ? undefined : { protocol: SOURCE_MAPPING_PROTOCOL, candidates };
}
