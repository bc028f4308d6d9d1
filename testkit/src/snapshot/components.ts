//! Component records from registered boundaries: name, parent boundary (by DOM containment),
//! source hint, readiness, sanitized facts, and every client rect of every root.
import type { ComponentRecord, Rect } from "../protocol";
import type { Platform } from "../platform";
import { devWarn } from "../errors";
import { sanitizeFacts } from "../privacy/redact";
import type { BoundaryRegistration } from "../bridge/registry";
import { roundRect } from "./geometry";
import { expandRoots } from "./walk";

/** Root element → component id for every connected root of every boundary. */
export function componentRootsOf(boundaries: readonly BoundaryRegistration[]): Map<Element, string> {
  const out = new Map<Element, string>();
  for (const b of boundaries) for (const root of b.roots()) if (root.isConnected && !out.has(root)) out.set(root, b.id);
  return out;
}

/** Nearest boundary that contains `el` strictly above it (crossing shadow hosts). */
export function enclosingComponentOf(el: Element, roots: Map<Element, string>, includeSelf: boolean): string | undefined {
  let cur: Element | null = includeSelf ? el : parentAcrossShadow(el);
  while (cur !== null) {
    const id = roots.get(cur);
    if (id !== undefined) return id;
    cur = parentAcrossShadow(cur);
  }
  return undefined;
}

/** The parent element, or the shadow host for the top of a shadow tree. */
export function parentAcrossShadow(el: Element): Element | null {
  if (el.parentElement !== null) return el.parentElement;
  const root = el.getRootNode();
  // A shadow root is a fragment with a host (nodeType, not instanceof: any realm).
  return root.nodeType === 11 ? ((root as ShadowRoot).host ?? null) : null;
}

/** `fn()`, or `fallback` (with a dev warning naming `what`) when `fn` is absent or throws. */
export function safeCall<T>(fn: (() => T) | undefined, fallback: T, what: string): T {
  if (fn === undefined) return fallback;
  try {
    return fn();
  } catch (e) {
    devWarn(`${what} threw (${String(e)}); using ${JSON.stringify(fallback)}. Make it side-effect free and total.`);
    return fallback;
  }
}

/** Builds the record of one boundary. */
export function componentRecordOf(
  b: BoundaryRegistration,
  roots: Map<Element, string>,
  platform: Platform,
  stringBytes: number,
): ComponentRecord {
  const live = b.roots().filter((r) => r.isConnected);
  const boxes: Rect[] = [];
  for (const root of expandRoots(live)) {
    for (const r of platform.clientRects(root)) boxes.push(roundRect(r));
  }
  const record: ComponentRecord = {
    id: b.id,
    name: b.name,
    ready: safeCall(b.ready, true, `ready() of boundary "${b.id}"`) === true,
    facts: sanitizeFacts(safeCall(b.facts, {}, `facts() of boundary "${b.id}"`), stringBytes),
    boxes,
  };
  const first = live[0];
  if (first !== undefined) {
    const parentId = enclosingComponentOf(first, roots, false);
    if (parentId !== undefined && parentId !== b.id) record.parentId = parentId;
  }
  if (b.source !== undefined) record.source = b.source;
  return record;
}
