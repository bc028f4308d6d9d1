//! Checks a finding's `target.layout` before it is queued, with the same rules as the ledger and
//! `docs/schema` (`$defs/layout`): a placement names its `componentSource` (a catalog id is
//! kebab-case), a blank page purpose is left out rather than stored as `""`, rectangles have
//! positive sizes, and unknown fields are refused so nothing is dropped without a word.
/** Longest component type or page purpose, in characters (the ledger's bound). */
export const MAX_LAYOUT_FIELD_CHARS = 256;
/** What a catalog `componentType` looks like (`date-picker`). */
export const CATALOG_ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const PLACEMENT_KEYS = new Set(["mode", "componentType", "componentSource", "canvas", "purpose", "destination"]);
const REARRANGE_KEYS = new Set(["mode", "originalRegion", "nodeId", "destination"]);

function positiveRect(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Record<string, unknown>;
  if (!["x", "y", "width", "height"].every((k) => typeof r[k] === "number" && Number.isFinite(r[k]))) return false;
  return Object.keys(r).length === 4 && (r.width as number) > 0 && (r.height as number) > 0;
}

function text(v: unknown): boolean {
  return typeof v === "string" && v.trim() !== "" && v.length <= MAX_LAYOUT_FIELD_CHARS;
}

/** Why `layout` cannot be queued, or undefined when it is valid. */
export function layoutProblem(layout: unknown): string | undefined {
  if (typeof layout !== "object" || layout === null) return "target.layout must be an object";
  const l = layout as Record<string, unknown>;
  const keys = l.mode === "placement" ? PLACEMENT_KEYS : l.mode === "rearrange" ? REARRANGE_KEYS : undefined;
  if (keys === undefined) return "target.layout.mode must be placement or rearrange";
  const unknown = Object.keys(l).find((k) => !keys.has(k));
  if (unknown !== undefined) return `target.layout has an unknown field ${unknown}`;
  if (!positiveRect(l.destination)) return "target.layout.destination must be a rect with a positive width and height";
  if (l.mode === "rearrange") {
    if (!positiveRect(l.originalRegion)) return "target.layout.originalRegion must be a rect with a positive width and height";
    if (l.nodeId !== undefined && (typeof l.nodeId !== "string" || l.nodeId === "" || l.nodeId.length > 128)) return "target.layout.nodeId must be 1-128 characters";
    return undefined;
  }
  if (l.componentSource !== "catalog" && l.componentSource !== "project") return "target.layout.componentSource must be catalog or project";
  if (!text(l.componentType)) return `target.layout.componentType must be 1-${MAX_LAYOUT_FIELD_CHARS} characters, not blank`;
  if (l.componentSource === "catalog" && !CATALOG_ID_PATTERN.test(l.componentType as string)) {
    return 'target.layout.componentType of a catalog component must be its kebab-case id (use componentSource "project" for a project component)';
  }
  if (l.canvas !== "page" && l.canvas !== "wireframe") return "target.layout.canvas must be page or wireframe";
  if (l.purpose !== undefined && !text(l.purpose)) return `target.layout.purpose must be 1-${MAX_LAYOUT_FIELD_CHARS} characters when given (leave it out when blank)`;
  return undefined;
}
