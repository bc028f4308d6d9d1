/**
 * Where the finding editor lives while it is open: a popover beside the mark, or the docked
 * panel's editor slot when no side of the mark has room (a narrow window, a mark as large as the
 * window) or Layout Mode is on. It also keeps what had the focus when the editor opened, so
 * closing a popover gives the focus back there (the page element marked with Enter, or the
 * overlay button used) instead of leaving it nowhere.
 */
import type { Rect } from "../../protocol";
import { POPOVER_MIN_VIEWPORT } from "./placement";
import { createPopover } from "./popover";

/** The editor's two homes and the focus to give back. */
export interface EditorHost {
  /** The popover element (goes into the shadow root after the panel, for the Tab order). */
  element: HTMLElement;
  /** Where the open editor is, or null when none is open. */
  where(): "popover" | "panel" | null;
  /** Opens `form`: in the panel when `inPanel` or the window is narrow, else in the popover. */
  show(form: HTMLElement, inPanel: boolean): void;
  /** Removes the editor from both homes. */
  clear(): void;
  /**
   * Places the popover beside `mark`, leaving `avoid` (the panel) uncovered when it can; with no
   * mark or no room, moves the editor into the panel (keeping the focus on the same control)
   * and returns false. A closed overlay (`open` false) only hides the popover.
   */
  follow(mark: Rect | null, avoid: Rect | undefined, open: boolean): boolean;
  /** Remembers what has the focus now (called as the editor opens). */
  rememberFocus(): void;
  /** Gives the focus back to what had it, else to the control keyed `fallback`, else `last`. */
  returnFocus(fallback: string, last: HTMLElement): void;
}

/** Creates the host; `slot` is the panel's editor slot. */
export function createEditorHost(doc: Document, win: Window, root: ShadowRoot, slot: HTMLElement): EditorHost {
  const popover = createPopover(doc, win);
  let at: "popover" | "panel" | null = null;
  let form: HTMLElement | null = null;
  let opener: { el: HTMLElement } | { key: string } | null = null;
  const focusKey = () => (root.activeElement as HTMLElement | null)?.dataset.focus;

  return {
    element: popover.element,
    where: () => at,
    show(next, inPanel) {
      form = next;
      if (!inPanel && win.innerWidth >= POPOVER_MIN_VIEWPORT) {
        slot.replaceChildren();
        popover.show(next);
        at = "popover";
      } else {
        popover.hide();
        slot.replaceChildren(next);
        at = "panel";
      }
    },
    clear() {
      popover.hide();
      slot.replaceChildren();
      form = null;
      at = null;
    },
    follow(mark, avoid, open) {
      if (at !== "popover" || form === null) return true;
      if (!open) {
        popover.element.hidden = true;
        return true;
      }
      if (mark !== null && popover.place(mark, avoid)) return true;
      const key = focusKey();
      popover.hide();
      slot.replaceChildren(form);
      at = "panel";
      if (key !== undefined) (root.querySelector(`[data-focus="${key}"]`) as HTMLElement | null)?.focus();
      return false;
    },
    rememberFocus() {
      const active = doc.activeElement;
      if (active === root.host) {
        const key = focusKey();
        opener = key !== undefined ? { key } : null;
      } else opener = active instanceof HTMLElement && active !== doc.body ? { el: active } : null;
    },
    returnFocus(fallback, last) {
      const o = opener;
      opener = null;
      if (o !== null && "el" in o && o.el.isConnected) {
        o.el.focus();
        if (doc.activeElement === o.el) return;
      }
      for (const key of o !== null && "key" in o ? [o.key, fallback] : [fallback]) {
        const el = root.querySelector(`[data-focus="${key}"]`) as HTMLButtonElement | null;
        if (el !== null && !el.disabled && el.offsetParent !== null) {
          el.focus();
          return;
        }
      }
      last.focus();
    },
  };
}
