/**
 * From what the reviewer pointed at to a `RepairTarget`: the host element under a point (past
 * the overlay's own layers, into open shadow roots), its bridge node id, and targets for each
 * marking kind. Node ids come from `bridge.nodeIdOf`, which reads them from the element itself.
 */
import type { PageContextBridge } from "../../bridge/api";
import type { Rect } from "../../protocol";
import type { RepairTarget } from "../../repair/types";
import { OVERLAY_HOST_TAG } from "@a3s-lab/testkit";
import { boundsOf, ellipseAround, pageScroll, rectOf } from "./geometry";

/** The host-page element at a viewport point, ignoring the overlay; null over nothing. */
export function hostElementAt(doc: Document, x: number, y: number): Element | null {
  const skip = (el: Element) => el.localName === OVERLAY_HOST_TAG || el === doc.documentElement;
  let found: Element | null = doc.elementsFromPoint(x, y).find((el) => !skip(el)) ?? null;
  // Descend into open shadow roots (the document only reports their hosts).
  for (let depth = 0; found !== null && found.shadowRoot !== null && depth < 8; depth += 1) {
    const inner: Element | undefined = found.shadowRoot.elementsFromPoint(x, y).find((el) => el !== found && found?.shadowRoot?.contains(el));
    if (inner === undefined) break;
    found = inner;
  }
  return found;
}

/** True when `el` belongs to the host page (not to the overlay). */
export function isHostElement(el: Element | null): el is Element {
  if (el === null) return false;
  for (let cur: Node | null = el; cur !== null; ) {
    if (cur.nodeType === 1 && (cur as Element).localName === OVERLAY_HOST_TAG) return false;
    // From a shadow root, continue at its host.
    cur = cur.parentNode ?? (cur as ShadowRoot).host ?? null;
  }
  return true;
}

function parentAcrossShadow(el: Element): Element | null {
  if (el.parentElement !== null) return el.parentElement;
  const root = el.getRootNode();
  return (root as ShadowRoot).host ?? null;
}

/** Most ancestors tried when an element itself has no id (a redacted field's form, say). */
const MAX_ID_ANCESTORS = 64;

/**
 * The bridge node id of `el`, or of its nearest ancestor that has one; null when none (the
 * overlay's own elements never have one). `bridge.nodeIdOf` answers from the element itself, so
 * marking costs a walk up the ancestors, not a projection of the viewport.
 */
export function nodeIdOf(bridge: PageContextBridge, el: Element): string | null {
  let cur: Element | null = el;
  for (let depth = 0; cur !== null && depth < MAX_ID_ANCESTORS; depth += 1, cur = parentAcrossShadow(cur)) {
    const id = bridge.nodeIdOf(cur);
    if (id !== null) return id;
  }
  return null;
}

/** A short readable name of an element for the panel (never sent as an instruction). */
export function describeElement(el: Element): string {
  const label = el.getAttribute("aria-label") ?? el.textContent ?? "";
  const text = label.replace(/\s+/g, " ").trim().slice(0, 40);
  return text === "" ? `<${el.localName}>` : `<${el.localName}> ${text}`;
}

/** A node target for `el`, with its current box as the fallback region. */
export function nodeTarget(bridge: PageContextBridge, win: Window, el: Element): RepairTarget | null {
  const id = nodeIdOf(bridge, el);
  if (id === null) return null;
  return { kind: "node", nodeIds: [id], region: rectOf(el.getBoundingClientRect()), regionScroll: pageScroll(win) };
}

/** A text target for a selected range. */
export function textTarget(bridge: PageContextBridge, win: Window, range: Range): RepairTarget | null {
  const text = range.toString().replace(/\s+/g, " ").trim();
  if (text === "") return null;
  const container = range.commonAncestorContainer;
  const el = container.nodeType === 1 ? (container as Element) : container.parentElement;
  const id = el !== null ? nodeIdOf(bridge, el) : null;
  return { kind: "text", nodeIds: id !== null ? [id] : [], text: text.slice(0, 8192), region: rectOf(range.getBoundingClientRect()), regionScroll: pageScroll(win) };
}

/** A region target. */
export function regionTarget(win: Window, region: Rect, nodeIds: string[] = []): RepairTarget {
  return { kind: "region", nodeIds, region: rectOf(region), regionScroll: pageScroll(win) };
}

/** A drawing target from a polyline in viewport px. */
export function drawingTarget(win: Window, points: ReadonlyArray<{ x: number; y: number }>, nodeIds: string[] = []): RepairTarget {
  const drawing = points.slice(0, 2000).map((p) => ({ x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 }));
  return { kind: "drawing", nodeIds, region: boundsOf(drawing), regionScroll: pageScroll(win), drawing };
}

/** The keyboard form of a drawing: an ellipse around an element's box. */
export function drawingAround(win: Window, r: Rect, nodeIds: string[] = []): RepairTarget {
  return drawingTarget(win, ellipseAround(r), nodeIds);
}
