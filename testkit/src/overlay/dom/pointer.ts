/**
 * Pointer marking. For element, multi, area, drawing and Layout picks a transparent catcher
 * covers the viewport inside the shadow root, so the page never sees those clicks; the element
 * under the pointer is found with `elementsFromPoint` past the overlay. Text mode leaves the
 * page alone and reads the document selection when a pointer is released.
 */
import { h } from "./el";
import { rectFromPoints } from "./geometry";
import { hostElementAt, isHostElement } from "./pick";
import type { Rect } from "../../protocol";

/** What the pointer is used for now. */
export type PointerMode = "element" | "multi" | "text" | "area" | "drawing" | "pick-region" | "pick-node" | null;

/** What the pointer layer reports. */
export interface PointerCallbacks {
  hover(el: Element | null): void;
  element(el: Element): void;
  /** A rectangle being dragged (null when the drag ends or is cancelled). */
  dragging(rect: Rect | null, points: ReadonlyArray<{ x: number; y: number }> | null): void;
  region(rect: Rect): void;
  drawing(points: Array<{ x: number; y: number }>): void;
  text(range: Range): void;
}

/** The pointer layer. */
export interface PointerLayer {
  element: HTMLElement;
  setMode(mode: PointerMode): void;
  destroy(): void;
}

/** Smallest drag, in CSS px, that counts as an area. */
const MIN_DRAG = 4;

/** Creates the pointer layer. */
export function createPointerLayer(doc: Document, win: Window, cb: PointerCallbacks): PointerLayer {
  const element = h(doc, "div", { class: "catcher", "data-part": "catcher", hidden: true });
  let mode: PointerMode = null;
  let start: { x: number; y: number } | null = null;
  let points: Array<{ x: number; y: number }> = [];

  const at = (e: PointerEvent) => ({ x: e.clientX, y: e.clientY });
  const dragsRegion = () => mode === "area" || mode === "pick-region";

  element.addEventListener("pointermove", (e) => {
    if (start !== null) {
      const p = at(e);
      if (mode === "drawing") points.push(p);
      cb.dragging(rectFromPoints(start, p), mode === "drawing" ? points : null);
      return;
    }
    if (mode === "element" || mode === "multi" || mode === "pick-node") cb.hover(hostElementAt(doc, e.clientX, e.clientY));
  });
  element.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    if (dragsRegion() || mode === "drawing") {
      start = at(e);
      points = [start];
      element.setPointerCapture?.(e.pointerId);
    }
  });
  element.addEventListener("pointerup", (e) => {
    if (e.button !== 0) return;
    const p = at(e);
    if (start !== null) {
      const r = rectFromPoints(start, p);
      const drawn = [...points, p];
      start = null;
      points = [];
      cb.dragging(null, null);
      if (mode === "drawing" && drawn.length > 2) cb.drawing(drawn);
      else if (dragsRegion() && r.width >= MIN_DRAG && r.height >= MIN_DRAG) cb.region(r);
      return;
    }
    if (mode === "element" || mode === "multi" || mode === "pick-node") {
      const el = hostElementAt(doc, p.x, p.y);
      if (el !== null) cb.element(el);
    }
  });
  // The page must not react to clicks that mark (pointerup already marked).
  element.addEventListener("click", (e) => e.preventDefault());

  const onSelectionEnd = (e: Event) => {
    if (mode !== "text") return;
    const sel = win.getSelection();
    if (sel === null || sel.isCollapsed || sel.rangeCount === 0) return;
    const range = sel.getRangeAt(0);
    const anchor = range.commonAncestorContainer;
    const el = anchor.nodeType === 1 ? (anchor as Element) : anchor.parentElement;
    if (!isHostElement(el) || !isHostElement(e.target as Element | null)) return;
    cb.text(range.cloneRange());
  };
  doc.addEventListener("pointerup", onSelectionEnd, true);

  return {
    element,
    setMode(next) {
      if (next === mode) return;
      mode = next;
      start = null;
      points = [];
      element.hidden = next === null || next === "text";
      element.dataset.mode = next ?? "";
      if (next === null || next === "text") cb.hover(null);
    },
    destroy() {
      doc.removeEventListener("pointerup", onSelectionEnd, true);
    },
  };
}
