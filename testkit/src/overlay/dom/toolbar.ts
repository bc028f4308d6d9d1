/**
 * The panel's header and toolbar: title, collapse and close buttons, the five marking modes with
 * their keys, Layout Mode, motion pause and marker visibility as toggle buttons (`aria-pressed`),
 * where the panel is docked (left, bottom, right), the hint for the current mode and, in multi
 * mode, the selection count with "Finish selection". Collapsed (pinned, or while marking), the
 * same controls form one small row — each button shows only its key, keeping its full name for
 * assistive technology — so the panel covers as little of the page as possible.
 */
import type { Translate } from "../i18n";
import type { OverlayState } from "../state/machine";
import { DOCKS, type Dock } from "../state/panel";
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
  dock(dock: Dock): void;
  /** Collapse the panel to its toolbar, or expand it. */
  collapse(): void;
}

function toggle(doc: Document, label: string, key: string, pressed: boolean, focus: string, onClick: () => void): HTMLElement {
  const k = h(doc, "kbd", { "aria-hidden": "true" }, key.toUpperCase());
  return h(doc, "button", { type: "button", "aria-pressed": pressed ? "true" : "false", "aria-keyshortcuts": key.toUpperCase(), "data-focus": focus, onclick: onClick }, h(doc, "span", { class: "label" }, label), k);
}

/** Builds the header, toolbar and hint for `s`; `compact` builds the collapsed row. */
export function buildToolbar(doc: Document, t: Translate, s: OverlayState, compact: boolean, on: ToolbarHandlers): HTMLElement[] {
  const collapse = h(
    doc,
    "button",
    { type: "button", class: "ghost", "data-focus": "collapse", "aria-expanded": compact ? "false" : "true", "aria-controls": "panel-body", "aria-keyshortcuts": "C", onclick: () => on.collapse() },
    h(doc, "span", { class: "text" }, t(compact ? "panel.expand" : "panel.collapse")),
    h(doc, "kbd", { "aria-hidden": "true" }, "C"),
  );
  const close = h(doc, "button", { type: "button", class: "ghost", "data-focus": "close", ...(compact ? { "aria-label": t("overlay.close") } : {}), onclick: () => on.close() }, compact ? "×" : t("overlay.close"));
  const title = h(doc, "h2", { id: "panel-title", class: compact ? "sr-only" : null }, t("overlay.title"));
  const modes = h(doc, "div", { class: "group", role: "group", "aria-label": t("overlay.modes") }, ...MARK_MODES.map(({ mode, key }) => toggle(doc, t(`mode.${mode}`), key, s.mode === mode, `mode-${mode}`, () => on.mode(mode))));
  const tools = h(
    doc,
    "div",
    { class: "group", role: "group", "aria-label": t("overlay.tools") },
    toggle(doc, t("mode.layout"), "l", s.layout, "layout", () => on.layout()),
    toggle(doc, t(s.paused ? "tool.resume" : "tool.pause"), "p", s.paused, "pause", () => on.pause()),
    toggle(doc, t(s.markersVisible ? "tool.hideMarkers" : "tool.showMarkers"), "h", !s.markersVisible, "markers", () => on.markers()),
  );
  const multi =
    s.mode === "multi"
      ? h(doc, "div", { class: "row", "data-part": "multi" }, h(doc, "span", {}, t("multi.count", { count: s.selection.length })), h(doc, "button", { type: "button", class: "primary", "data-focus": "finish-multi", disabled: s.selection.length === 0, onclick: () => on.finishMulti() }, t("multi.finish")))
      : null;
  const hintKey = s.picking !== null ? "hint.pick" : s.mode !== null ? (`hint.${s.mode}` as const) : "hint.idle";
  const hint = h(doc, "p", { class: "hint", "data-part": "hint" }, t(hintKey));
  // Collapsed, the hint shows only while it says how to mark (the idle one lists the keys).
  if (compact) return [h(doc, "div", { class: "strip", "data-part": "strip" }, title, modes, tools, ...(multi !== null ? [multi] : []), collapse, close, hintKey !== "hint.idle" ? hint : null)];
  const head = h(doc, "div", { class: "head" }, title, h(doc, "div", { class: "row" }, collapse, close));
  const dock = h(
    doc,
    "div",
    { class: "group place", role: "group", "aria-label": t("overlay.place"), "data-part": "dock" },
    ...DOCKS.map((d) => h(doc, "button", { type: "button", "aria-pressed": s.dock === d ? "true" : "false", "data-focus": `dock-${d}`, onclick: () => on.dock(d) }, t(`dock.${d}`))),
    h(doc, "kbd", { "aria-hidden": "true" }, "K"),
  );
  return [head, modes, tools, dock, hint, ...(multi !== null ? [multi] : [])];
}
