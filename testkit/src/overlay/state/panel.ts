/**
 * Where the reviewer keeps the panel: docked left, right or bottom, and whether it is pinned
 * collapsed to a small toolbar. Both are the reviewer's choice for an origin (the panel must
 * never sit on what they need to mark), so they are read back from storage — where anything a
 * page or an older version wrote may be there — field by field, keeping the default for any
 * field that is not one of the known values.
 */

/** A side of the viewport the panel docks to. */
export type Dock = "left" | "right" | "bottom";

/** The docks in the order the shortcut cycles through them. */
export const DOCKS: readonly Dock[] = ["right", "bottom", "left"];

/** The remembered placement of the panel. */
export interface PanelPrefs {
  dock: Dock;
  /** Pinned collapsed: the panel shows only its small toolbar until the reviewer expands it. */
  collapsed: boolean;
}

/** The placement a first visit gets. */
export const DEFAULT_PREFS: PanelPrefs = { dock: "right", collapsed: false };

/** The placement in `raw` (parsed JSON of unknown origin); unknown or malformed fields keep their default. */
export function sanitizePrefs(raw: unknown): PanelPrefs {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return { ...DEFAULT_PREFS };
  const r = raw as Record<string, unknown>;
  const dock = DOCKS.find((d) => d === r.dock) ?? DEFAULT_PREFS.dock;
  const collapsed = typeof r.collapsed === "boolean" ? r.collapsed : DEFAULT_PREFS.collapsed;
  return { dock, collapsed };
}

/** The dock after `dock` in the shortcut's cycle. */
export function nextDock(dock: Dock): Dock {
  return DOCKS[(DOCKS.indexOf(dock) + 1) % DOCKS.length] ?? DEFAULT_PREFS.dock;
}
