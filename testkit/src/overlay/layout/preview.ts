/**
 * The Layout Mode preview: a fixed, pointer-transparent layer that outlines the destination (as a
 * labelled wireframe box, with the page faded behind it, on the wireframe canvas) and, for a
 * rearrange, the original region. It is evidence for the reviewer's eyes only: it is
 * `aria-hidden`, takes no pointer events, styles only its own elements and never touches, moves or
 * measures host nodes. Its label is display text and never part of a finding's instruction.
 * @module
 */
import type { Rect } from "../../protocol";

/** What the preview shows; absent rects are hidden. */
export interface PreviewState {
  canvas?: "page" | "wireframe";
  destination?: Rect;
  original?: Rect;
  /** Shown inside the destination box (the component's display name). */
  label?: string;
}

/** A mounted preview layer. */
export interface Preview {
  /** The layer element (inside the overlay's shadow root, never in the host page). */
  layer: HTMLElement;
  update(state: PreviewState): void;
  destroy(): void;
}

const ACCENT = "#2563eb";
const ORIGINAL = "#d97706";

// Visibility goes through `display` (not `hidden`): an inline `display` would override `hidden`.
function place(el: HTMLElement, rect: Rect | undefined, shown: "block" | "flex"): void {
  el.style.display = rect === undefined ? "none" : shown;
  if (rect === undefined) return;
  el.style.left = `${rect.x}px`;
  el.style.top = `${rect.y}px`;
  el.style.width = `${rect.width}px`;
  el.style.height = `${rect.height}px`;
}

/** Creates the layer as the first child of `parent` (the overlay's shadow root, or the editor container). */
export function createPreview(doc: Document, parent: Node): Preview {
  const layer = doc.createElement("div");
  layer.className = "a3s-layout-preview";
  layer.setAttribute("aria-hidden", "true");
  layer.dataset.a3sLayoutPreview = "";
  Object.assign(layer.style, { position: "fixed", inset: "0", pointerEvents: "none", zIndex: "2147483646", overflow: "hidden", contain: "strict" });

  const fade = doc.createElement("div");
  Object.assign(fade.style, { position: "absolute", inset: "0", background: "rgba(255, 255, 255, 0.55)" });
  const original = doc.createElement("div");
  Object.assign(original.style, { position: "absolute", boxSizing: "border-box", border: `2px dashed ${ORIGINAL}`, background: "rgba(217, 119, 6, 0.08)" });
  original.dataset.part = "original";
  const destination = doc.createElement("div");
  destination.dataset.part = "destination";
  Object.assign(destination.style, { position: "absolute", boxSizing: "border-box", alignItems: "center", justifyContent: "center", font: "12px/1.3 system-ui, sans-serif", color: ACCENT, overflow: "hidden" });
  const label = doc.createElement("span");
  Object.assign(label.style, { padding: "2px 6px", background: "rgba(255, 255, 255, 0.9)", borderRadius: "3px" });
  destination.append(label);
  layer.append(fade, original, destination);
  // First child, one below the top z-index: the overlay's own panel (later in tree order, at
  // 2147483647) paints above the fade and outlines instead of being dimmed by them.
  parent.insertBefore(layer, parent.firstChild);

  const preview: Preview = {
    layer,
    update(state) {
      const wireframe = state.canvas === "wireframe";
      fade.hidden = !(wireframe && state.destination !== undefined);
      place(original, state.original, "block");
      place(destination, state.destination, "flex");
      destination.style.border = `2px ${wireframe ? "dashed" : "solid"} ${ACCENT}`;
      destination.style.background = wireframe
        ? "repeating-linear-gradient(45deg, rgba(37, 99, 235, 0.06) 0 8px, rgba(37, 99, 235, 0.12) 8px 16px)"
        : "rgba(37, 99, 235, 0.08)";
      label.textContent = state.label ?? "";
      label.hidden = (state.label ?? "") === "";
    },
    destroy() {
      layer.remove();
    },
  };
  preview.update({});
  return preview;
}
