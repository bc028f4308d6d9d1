/**
 * Keyboard routing: which keys the overlay may take. Letters typed into inputs, textareas,
 * selects, contenteditable regions and editor widgets (role textbox, combobox, searchbox,
 * spinbutton) stay with them, in the host page and in the overlay's own fields alike; modified
 * keys (Ctrl, Alt, Meta) are never taken. K moves the panel to the next dock, C collapses or
 * expands it.
 */
import { MARK_MODES, type MarkMode } from "../state/types";

/** What a key press asks the overlay to do. */
export type KeyCommand =
  | { kind: "mode"; mode: MarkMode }
  | { kind: "layout" }
  | { kind: "pause" }
  | { kind: "markers" }
  | { kind: "dock" }
  | { kind: "collapse" }
  | { kind: "escape" }
  | { kind: "enter"; shift: boolean };

const EDITOR_ROLES = new Set(["textbox", "combobox", "searchbox", "spinbutton"]);
const NON_TEXT_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);

/** True when `el` takes typed letters. */
export function isEditable(el: Element | null): boolean {
  if (el === null) return false;
  const tag = el.localName;
  if (tag === "textarea" || tag === "select") return true;
  if (tag === "input") return !NON_TEXT_INPUTS.has((el as HTMLInputElement).type.toLowerCase());
  if ((el as HTMLElement).isContentEditable) return true;
  const role = el.getAttribute("role");
  return role !== null && EDITOR_ROLES.has(role);
}

/** The element a key event really started at (inside open shadow roots too). */
export function eventOrigin(e: Event): Element | null {
  const path = e.composedPath();
  const first = path.find((n): n is Element => typeof (n as Element).localName === "string");
  return first ?? null;
}

/** The command of a key press, or null when the overlay must leave it alone. */
export function commandOf(e: Pick<KeyboardEvent, "key" | "shiftKey" | "ctrlKey" | "altKey" | "metaKey" | "isComposing">, origin: Element | null): KeyCommand | null {
  if (e.isComposing) return null;
  if (e.key === "Escape") return { kind: "escape" };
  if (e.ctrlKey || e.altKey || e.metaKey) return null;
  if (e.key === "Enter") return { kind: "enter", shift: e.shiftKey };
  if (e.key.length !== 1 || isEditable(origin)) return null;
  const k = e.key.toLowerCase();
  if (e.shiftKey && k === e.key) return null;
  const mode = MARK_MODES.find((m) => m.key === k);
  if (mode !== undefined) return { kind: "mode", mode: mode.mode };
  if (k === "l") return { kind: "layout" };
  if (k === "p") return { kind: "pause" };
  if (k === "h") return { kind: "markers" };
  if (k === "k") return { kind: "dock" };
  if (k === "c") return { kind: "collapse" };
  return null;
}
