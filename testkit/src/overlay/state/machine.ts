/**
 * The overlay's interaction state as a pure reducer: whether the panel is open, which marking
 * mode runs, the multi-selection being built, the finding being edited, Layout Mode, motion
 * pause, marker visibility, the session-only auto-send choice and where the panel sits (docked
 * left, right or bottom; pinned collapsed, or expanded by the reviewer while marking). It owns the Escape order
 * (marking or picking first, then editing, then the idle panel) and never touches the DOM, so it
 * is tested without one.
 */
import type { RepairTarget } from "../../repair/types";
import { emptyFields, type Draft, type FindingFields, type MarkMode } from "./types";
import { DEFAULT_PREFS, nextDock, type Dock } from "./panel";

/** The finding open in the editor. */
export interface Editing {
  /** Id of the draft; a new draft gets its id when it is first marked. */
  id: string;
  createdAt: string;
  /** False until the draft was saved once. */
  saved: boolean;
  target: RepairTarget;
  fields: FindingFields;
}

/** The whole interaction state. */
export interface OverlayState {
  open: boolean;
  mode: MarkMode | null;
  /** A Layout Mode pick (region or node) waiting for the reviewer. */
  picking: "region" | "node" | null;
  /** Targets added in multi mode, in the order they were added. */
  selection: RepairTarget[];
  editing: Editing | null;
  layout: boolean;
  paused: boolean;
  markersVisible: boolean;
  /** Explicit choice of this session; never persisted. */
  autoSend: boolean;
  /** Where the panel is docked (remembered per origin). */
  dock: Dock;
  /** Pinned collapsed to its small toolbar (remembered per origin). */
  collapsed: boolean;
  /**
   * The reviewer expanded the panel during this marking: while a mode runs or the editor is a
   * popover the panel shrinks to its toolbar unless they asked for it. Cleared when marking ends.
   */
  peek: boolean;
}

/** Something that happened. */
export type OverlayEvent =
  | { type: "open" }
  | { type: "close" }
  | { type: "start_mode"; mode: MarkMode }
  | { type: "start_pick"; pick: "region" | "node" }
  | { type: "end_pick" }
  | { type: "toggle_layout" }
  | { type: "toggle_pause" }
  | { type: "toggle_markers" }
  /** Dock to `dock`, or to the next dock of the cycle when omitted. */
  | { type: "dock"; dock?: Dock }
  /**
   * Collapse or expand: `compact` is whether the panel shows as the small toolbar now, `marking`
   * whether a mode runs or the editor is a popover (an expansion then lasts until it ends).
   */
  | { type: "toggle_collapsed"; compact: boolean; marking: boolean }
  | { type: "set_auto_send"; on: boolean }
  | { type: "add"; target: RepairTarget }
  | { type: "finish_multi"; id: string; createdAt: string }
  | { type: "marked"; target: RepairTarget; id: string; createdAt: string }
  | { type: "open_editor"; target: RepairTarget; id: string; createdAt: string; fields?: Partial<FindingFields> }
  | { type: "edit"; draft: Draft }
  | { type: "fields"; fields: Partial<FindingFields> }
  | { type: "target"; target: RepairTarget }
  | { type: "saved" }
  | { type: "close_editor" }
  | { type: "escape" };

/** The state of a freshly mounted overlay (panel open). */
export function initialState(): OverlayState {
  return { open: true, mode: null, picking: null, selection: [], editing: null, layout: false, paused: false, markersVisible: true, autoSend: false, ...DEFAULT_PREFS, peek: false };
}

/**
 * Whether the panel shows as its small toolbar: pinned collapsed, or marking (a mode runs, or
 * the editor is open as a popover) without the reviewer having expanded it. An editor that fell
 * back into the panel, and Layout Mode (a form of the panel), always get the whole panel.
 */
export function isCompact(s: OverlayState, editorIn: "popover" | "panel" | null): boolean {
  if (editorIn === "panel" || s.layout) return false;
  const marking = s.mode !== null || editorIn === "popover";
  return s.collapsed || (marking && !s.peek);
}

function sameNode(a: RepairTarget, b: RepairTarget): boolean {
  return a.kind === "node" && b.kind === "node" && a.nodeIds.length > 0 && a.nodeIds.join(" ") === b.nodeIds.join(" ");
}

/** One node target covering every selected node, in selection order; the first region wins. */
export function mergeSelection(selection: readonly RepairTarget[]): RepairTarget | null {
  const first = selection[0];
  if (first === undefined) return null;
  const nodeIds = [...new Set(selection.flatMap((t) => t.nodeIds))].slice(0, 64);
  return { ...first, kind: "node", nodeIds };
}

/** What Escape would cancel now, or null when it does nothing. */
export function escapeTarget(s: OverlayState): "pick" | "mark" | "edit" | "panel" | null {
  if (s.picking !== null) return "pick";
  if (s.mode !== null) return "mark";
  if (s.editing !== null) return "edit";
  if (s.open) return "panel";
  return null;
}

/** The next state. Events that make no sense in the current state leave it unchanged. */
export function reduce(s: OverlayState, e: OverlayEvent): OverlayState {
  const next = step(s, e);
  // An expansion asked for while marking lasts until the marking (and its editor) ends.
  return next.peek && next.mode === null && next.editing === null ? { ...next, peek: false } : next;
}

function step(s: OverlayState, e: OverlayEvent): OverlayState {
  switch (e.type) {
    case "dock": {
      const dock = e.dock ?? nextDock(s.dock);
      return dock === s.dock ? s : { ...s, dock };
    }
    case "toggle_collapsed":
      return e.compact ? { ...s, collapsed: false, peek: e.marking } : { ...s, collapsed: true, peek: false };
    case "open":
      return s.open ? s : { ...s, open: true };
    case "close":
      return { ...s, open: false, mode: null, picking: null, selection: [] };
    case "start_mode":
      // The editor must be saved or cancelled before new marking starts.
      if (!s.open || s.editing !== null || s.picking !== null) return s;
      if (s.mode === e.mode) return { ...s, mode: null, selection: [] };
      return { ...s, mode: e.mode, selection: [] };
    case "start_pick":
      if (!s.open) return s;
      return { ...s, picking: e.pick, mode: null, selection: [] };
    case "end_pick":
      return { ...s, picking: null };
    case "toggle_layout":
      if (!s.open) return s;
      return { ...s, layout: !s.layout };
    case "toggle_pause":
      if (!s.open) return s;
      return { ...s, paused: !s.paused };
    case "toggle_markers":
      if (!s.open) return s;
      return { ...s, markersVisible: !s.markersVisible };
    case "set_auto_send":
      return { ...s, autoSend: e.on };
    case "add": {
      if (s.mode !== "multi") return s;
      const present = s.selection.findIndex((t) => sameNode(t, e.target));
      const selection = present >= 0 ? s.selection.filter((_, i) => i !== present) : [...s.selection, e.target];
      return { ...s, selection };
    }
    case "finish_multi": {
      if (s.mode !== "multi") return s;
      const target = mergeSelection(s.selection);
      if (target === null) return s;
      return { ...s, mode: null, selection: [], editing: { id: e.id, createdAt: e.createdAt, saved: false, target, fields: emptyFields() } };
    }
    case "marked":
      if (s.mode === null || s.editing !== null) return s;
      if (s.mode === "multi") return step(s, { type: "add", target: e.target });
      return { ...s, mode: null, editing: { id: e.id, createdAt: e.createdAt, saved: false, target: e.target, fields: emptyFields() } };
    case "open_editor":
      if (s.editing !== null) return s;
      return { ...s, open: true, mode: null, selection: [], editing: { id: e.id, createdAt: e.createdAt, saved: false, target: e.target, fields: { ...emptyFields(), ...e.fields } } };
    case "edit": {
      const { id, createdAt, target, sendError: _e, ...fields } = e.draft;
      return { ...s, open: true, mode: null, selection: [], editing: { id, createdAt, saved: true, target, fields } };
    }
    case "fields":
      if (s.editing === null) return s;
      return { ...s, editing: { ...s.editing, fields: { ...s.editing.fields, ...e.fields } } };
    case "target":
      if (s.editing === null) return s;
      return { ...s, editing: { ...s.editing, target: e.target } };
    case "saved":
      return { ...s, editing: null };
    case "close_editor":
      return { ...s, editing: null };
    case "escape":
      switch (escapeTarget(s)) {
        case "pick":
          return { ...s, picking: null };
        case "mark":
          return { ...s, mode: null, selection: [] };
        case "edit":
          return { ...s, editing: null };
        case "panel":
          return step(s, { type: "close" });
        default:
          return s;
      }
  }
}
