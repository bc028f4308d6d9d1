/**
 * The finding editor's popover: a non-modal dialog beside the mark, so the reviewer writes the
 * instruction while still seeing what they marked and the panel can stay collapsed. It measures
 * the editor, asks `placePopover` for a side that keeps it inside the viewport and off the
 * mark's box, and says when no side has room — the controller then moves the editor into the
 * docked panel. Only the overlay's own element is styled.
 */
import type { Rect } from "../../protocol";
import { h } from "./el";
import { placePopover, type PopoverPlace } from "./placement";

/** The popover shell. */
export interface Popover {
  element: HTMLElement;
  /** Shows `content` in the popover (hidden until placed). */
  show(content: HTMLElement): void;
  /**
   * Places the shown popover beside `mark` (viewport CSS px), leaving `avoid` (the panel)
   * uncovered when it can; false when no side has room (the popover is hidden then).
   */
  place(mark: Rect, avoid?: Rect): boolean;
  /** Hides the popover and gives its content back (detached). */
  hide(): void;
  /** Where it is now, or null when hidden. */
  current(): PopoverPlace | null;
}

/** Creates the popover shell (hidden). */
export function createPopover(doc: Document, win: Window): Popover {
  const element = h(doc, "section", { class: "popover", role: "dialog", "aria-modal": "false", "aria-labelledby": "editor-heading", "data-part": "popover", hidden: true });
  let at: PopoverPlace | null = null;
  return {
    element,
    show(content) {
      at = null;
      element.replaceChildren(content);
      element.hidden = true;
    },
    place(mark, avoid) {
      // Measured at its natural height, off screen, without scrolling the popover itself.
      element.style.maxHeight = "none";
      element.style.visibility = "hidden";
      element.hidden = false;
      const size = { width: element.offsetWidth, height: element.scrollHeight };
      element.style.visibility = "";
      const next = placePopover(mark, size, { width: win.innerWidth, height: win.innerHeight }, avoid);
      if (next === null) {
        element.hidden = true;
        at = null;
        return false;
      }
      at = next;
      element.dataset.side = next.side;
      element.style.left = `${next.x}px`;
      element.style.top = `${next.y}px`;
      element.style.maxHeight = `${next.height}px`;
      return true;
    },
    hide() {
      at = null;
      element.hidden = true;
      element.replaceChildren();
    },
    current: () => at,
  };
}
