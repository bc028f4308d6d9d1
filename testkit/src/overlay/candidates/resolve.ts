/**
 * Finds a candidate's element on the live page from its simple locator, through the page's own
 * Page Context (the same roles, names and locators a snapshot reports) — so the overlay marks the
 * element A3S Test would find, not one it guessed. Exactly one match is an element; none or
 * several is no marker (the candidate is still listed, with its target as text).
 */
import type { PageContextBridge } from "../../bridge/api";
import type { Locator, NodeRecord } from "../../protocol";
import type { CandidateLocator, TextMode } from "./feed";

function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function matches(seen: string | undefined, wanted: string, mode: TextMode): boolean {
  if (seen === undefined) return false;
  const a = norm(seen);
  const b = norm(wanted);
  return mode === "exact" ? a === b : a.toLowerCase().includes(b.toLowerCase());
}

function hasLocator(node: NodeRecord, kind: Locator["kind"], wanted: string, mode: TextMode): boolean {
  return node.locators.some((l) => l.kind === kind && "value" in l && matches(l.value, wanted, mode));
}

function nodeMatches(n: NodeRecord, l: Exclude<CandidateLocator, { kind: "css" | "test_id" }>): boolean {
  return l.kind === "role" ? n.role === l.role && (l.name === undefined || matches(n.name, l.name, l.mode)) : hasLocator(n, l.kind, l.value, l.mode);
}

function one<T>(list: readonly T[]): T | null {
  return list.length === 1 ? (list[0] as T) : null;
}

/** The one element `locator` names on the page now, or null (none, several, or unreadable). */
export function resolveCandidate(bridge: PageContextBridge, doc: Document, locator: CandidateLocator): Element | null {
  try {
    const l = locator;
    if (l.kind === "css" || l.kind === "test_id") {
      const selector = l.kind === "css" ? l.value : `[data-testid="${l.value.replace(/["\\]/g, "\\$&")}"]`;
      // Elements the Page Context does not report (the overlay's own) are not candidates' targets.
      return one([...doc.querySelectorAll(selector)].filter((el) => bridge.nodeIdOf(el) !== null));
    }
    const nodes = bridge.snapshot({ detail: "summary", ui: false }).nodes;
    const found = nodes.filter((n) => nodeMatches(n, l));
    const node = one(found);
    return node === null ? null : bridge.resolve(node.id);
  } catch {
    // An invalid selector, a disposed bridge: no marker.
    return null;
  }
}
