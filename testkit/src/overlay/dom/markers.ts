/**
 * The marker layer: pointer-transparent boxes, text highlights and drawings over the page, one
 * per draft, selection item or finding being edited. Node markers are placed from their live
 * elements' `getBoundingClientRect()`, clipped to the nested scroll containers around them (a
 * node scrolled out of its container draws nothing); stored regions move with the page through
 * `regionScroll`; a node that no longer resolves falls back to its stored region. Page scroll,
 * scrolling of any nested container (captured at the document), visual-viewport movement and
 * resize schedule one refresh per animation frame. Only the overlay's own elements are styled.
 */
import type { PageContextBridge } from "../../bridge/api";
import type { Rect } from "../../protocol";
import type { RepairTarget } from "../../repair/types";
import { h, svg } from "./el";
import { clipToAncestors, pageScroll, regionNow, rectOf } from "./geometry";

/** Most markers drawn at once. */
const MAX_MARKERS = 200;
/** Most boxes drawn for one marker (a multi-node target or a multi-line text range). */
const MAX_BOXES = 64;

/** One thing to show on the page. */
export interface Marker {
  key: string;
  /** Badge text (its position in the draft list), empty for none. */
  label: string;
  tone: "draft" | "selection" | "editing" | "hover" | "advice" | "candidate";
  target: RepairTarget;
  /** A live text range, while it still exists. */
  range?: Range;
}

/** The marker layer. */
export interface MarkerLayer {
  element: HTMLElement;
  /** Replaces every marker and redraws now. */
  set(markers: readonly Marker[]): void;
  /** Shows or hides the markers. */
  setVisible(visible: boolean): void;
  /** Schedules one redraw on the next frame (coalesced). */
  schedule(): void;
  /** Where each marker is drawn now (read by tests through the DOM, and by the panel). */
  boxesOf(key: string): Rect[];
  destroy(): void;
}

function liveBoxes(bridge: PageContextBridge, win: Window, m: Marker): Rect[] {
  const t = m.target;
  if (m.range !== undefined && m.range.startContainer.isConnected) {
    const rects = [...m.range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).map(rectOf);
    if (rects.length > 0) {
      const common = m.range.commonAncestorContainer;
      const owner = common instanceof Element ? common : common.parentElement;
      return visible(owner, rects.slice(0, MAX_BOXES), win);
    }
  }
  if (t.kind === "node" || (t.kind === "text" && m.range === undefined && t.region === undefined)) {
    const boxes: Rect[] = [];
    let resolved = false;
    for (const id of t.nodeIds.slice(0, MAX_BOXES)) {
      let el: Element | null = null;
      try {
        el = bridge.resolve(id);
      } catch {
        el = null;
      }
      if (el !== null) boxes.push(...visible(el, [rectOf(el.getBoundingClientRect())], win));
      resolved ||= el !== null;
    }
    // A resolved node scrolled out of its container has no box: it does not fall back to the region.
    if (resolved) return boxes;
  }
  const region = t.layout?.destination ?? t.region;
  return region !== undefined ? [regionNow(region, t.regionScroll, pageScroll(win))] : [];
}

/** The visible parts of `boxes` inside `owner`'s clipping ancestors (nested scroll containers). */
function visible(owner: Element | null, boxes: Rect[], win: Window): Rect[] {
  if (owner === null) return boxes;
  return boxes.map((b) => clipToAncestors(owner, b, win)).filter((b): b is Rect => b !== null);
}

function place(el: HTMLElement, r: Rect): void {
  el.style.transform = `translate(${r.x}px, ${r.y}px)`;
  el.style.width = `${Math.max(0, r.width)}px`;
  el.style.height = `${Math.max(0, r.height)}px`;
}

/**
 * Creates the marker layer and starts following scroll, resize and visual-viewport changes;
 * `onDraw` runs after every redraw (the editor popover follows its mark with it).
 */
export function createMarkerLayer(doc: Document, win: Window, bridge: PageContextBridge, onDraw: () => void = () => undefined): MarkerLayer {
  const element = h(doc, "div", { class: "layer markers", "data-part": "markers", "aria-hidden": "true" });
  let markers: readonly Marker[] = [];
  let frame: number | null = null;
  const drawn = new Map<string, Rect[]>();

  const draw = () => {
    frame = null;
    drawn.clear();
    const nodes: Node[] = [];
    const scroll = pageScroll(win);
    for (const m of markers.slice(0, MAX_MARKERS)) {
      const boxes = liveBoxes(bridge, win, m);
      drawn.set(m.key, boxes);
      boxes.forEach((r, i) => {
        const box = h(doc, "div", { class: `marker ${m.tone} ${m.target.kind}`, "data-marker": m.key });
        place(box, r);
        if (i === 0 && m.label !== "") box.append(h(doc, "span", { class: "badge" }, m.label));
        nodes.push(box);
      });
      const points = m.target.drawing;
      if (m.target.kind === "drawing" && points !== undefined && points.length > 1) {
        const dx = m.target.regionScroll !== undefined ? scroll.x - m.target.regionScroll.x : 0;
        const dy = m.target.regionScroll !== undefined ? scroll.y - m.target.regionScroll.y : 0;
        const canvas = svg(doc, "svg", { class: `drawing ${m.tone}`, width: "100%", height: "100%" });
        canvas.append(svg(doc, "polyline", { points: points.map((p) => `${p.x - dx},${p.y - dy}`).join(" "), fill: "none" }));
        nodes.push(canvas);
      }
    }
    element.replaceChildren(...nodes);
    onDraw();
  };

  const schedule = () => {
    if (frame !== null) return;
    frame = win.requestAnimationFrame(draw);
  };
  const listenOpts: AddEventListenerOptions = { capture: true, passive: true };
  // Scroll events do not bubble; capturing at the document sees nested containers too.
  doc.addEventListener("scroll", schedule, listenOpts);
  win.addEventListener("resize", schedule, listenOpts);
  win.visualViewport?.addEventListener("scroll", schedule, listenOpts);
  win.visualViewport?.addEventListener("resize", schedule, listenOpts);

  return {
    element,
    set(next) {
      markers = next;
      if (frame !== null) {
        win.cancelAnimationFrame(frame);
        frame = null;
      }
      draw();
    },
    setVisible(visible) {
      element.hidden = !visible;
    },
    schedule,
    boxesOf: (key) => drawn.get(key) ?? [],
    destroy() {
      if (frame !== null) win.cancelAnimationFrame(frame);
      doc.removeEventListener("scroll", schedule, listenOpts);
      win.removeEventListener("resize", schedule, listenOpts);
      win.visualViewport?.removeEventListener("scroll", schedule, listenOpts);
      win.visualViewport?.removeEventListener("resize", schedule, listenOpts);
    },
  };
}
