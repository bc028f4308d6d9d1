/**
 * The panel's header and toolbar: title, close button, the five marking modes with their keys,
 * Layout Mode, motion pause and marker visibility as toggle buttons (`aria-pressed`), the hint
 * for the current mode and, in multi mode, the selection count with "Finish selection".
 */
import type { Translate } from "../i18n";
import type { OverlayState } from "../state/machine";
import { MARK_MODES, type MarkMode } from "../state/types";
import { h } from "./el";

/** What the toolbar asks for. */
export interface ToolbarHandlers {
  close(): void;
  mode(mode: MarkMode): void;
  layout(): void;
  pause(): void;
  markers(): void;
  finishMulti(): void;
}

function toggle(doc: Document, label: string, key: string, pressed: boolean, focus: string, onClick: () => void): HTMLElement {
  const k = h(doc, "kbd", { "aria-hidden": "true" }, key.toUpperCase());
  return h(doc, "button", { type: "button", "aria-pressed": pressed ? "true" : "false", "aria-keyshortcuts": key.toUpperCase(), "data-focus": focus, onclick: onClick }, label, k);
}

/** Builds the header, toolbar and hint for `s`. */
export function buildToolbar(doc: Document, t: Translate, s: OverlayState, on: ToolbarHandlers): HTMLElement[] {
  const head = h(doc, "div", { class: "head" }, h(doc, "h2", { id: "panel-title" }, t("overlay.title")), h(doc, "button", { type: "button", class: "ghost", "data-focus": "close", onclick: () => on.close() }, t("overlay.close")));
  const modes = h(doc, "div", { class: "group", role: "group", "aria-label": t("overlay.modes") }, ...MARK_MODES.map(({ mode, key }) => toggle(doc, t(`mode.${mode}`), key, s.mode === mode, `mode-${mode}`, () => on.mode(mode))));
  const tools = h(
    doc,
    "div",
    { class: "group", role: "group", "aria-label": t("overlay.tools") },
    toggle(doc, t("mode.layout"), "l", s.layout, "layout", () => on.layout()),
    toggle(doc, t(s.paused ? "tool.resume" : "tool.pause"), "p", s.paused, "pause", () => on.pause()),
    toggle(doc, t(s.markersVisible ? "tool.hideMarkers" : "tool.showMarkers"), "h", !s.markersVisible, "markers", () => on.markers()),
  );
  const hintKey = s.picking !== null ? "hint.pick" : s.mode !== null ? (`hint.${s.mode}` as const) : "hint.idle";
  const hint = h(doc, "p", { class: "hint", "data-part": "hint" }, t(hintKey));
  const parts = [head, modes, tools, hint];
  if (s.mode === "multi") {
    parts.push(h(doc, "div", { class: "row", "data-part": "multi" }, h(doc, "span", {}, t("multi.count", { count: s.selection.length })), h(doc, "button", { type: "button", class: "primary", "data-focus": "finish-multi", disabled: s.selection.length === 0, onclick: () => on.finishMulti() }, t("multi.finish"))));
  }
  return parts;
}
