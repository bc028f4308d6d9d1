//! Checks a finding's `target.layout` before it is queued, with the same rules as the ledger and
//! `docs/schema` (`$defs/layout`): a placement names its `componentSource` (a catalog id is
//! kebab-case), a blank page purpose is left out rather than stored as `""`, rectangles have
//! positive sizes, and unknown fields are refused so nothing is dropped without a word.
import { TestKitError } from "../errors";
import { charCount, fail, isRect, oneOf, onlyKeys } from "./check";

/** Longest component type or page purpose, in characters (the ledger's bound). */
export const MAX_LAYOUT_FIELD_CHARS = 256;
/** What a catalog `componentType` looks like (`date-picker`). */
export const CATALOG_ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const PLACEMENT_KEYS = ["mode", "componentType", "componentSource", "canvas", "purpose", "destination"];
const REARRANGE_KEYS = ["mode", "originalRegion", "nodeId", "destination"];

function positiveRect(v: unknown, where: string): void {
  if (!isRect(v) || Object.keys(v).length !== 4 || !(v.width > 0 && v.height > 0)) fail(`${where} must be a rect with a positive width and height`);
}

function text(v: unknown, where: string, max: number): void {
  if (typeof v !== "string" || v.trim() === "" || charCount(v) > max) fail(`${where} must be 1-${max} characters, not blank`);
}

/** Throws `invalid_repair` unless `layout` can be queued. */
export function checkLayout(layout: unknown): void {
  const w = "target.layout";
  if (typeof layout !== "object" || layout === null) fail(`${w} must be an object`);
  const l = layout as Record<string, unknown>;
  const mode = oneOf(l.mode, ["placement", "rearrange"], `${w}.mode`);
  onlyKeys(l, mode === "placement" ? PLACEMENT_KEYS : REARRANGE_KEYS, w);
  positiveRect(l.destination, `${w}.destination`);
  if (mode === "rearrange") {
    positiveRect(l.originalRegion, `${w}.originalRegion`);
    const id = l.nodeId;
    if (id !== undefined && (typeof id !== "string" || id === "" || id.length > 128)) fail(`${w}.nodeId must be 1-128 characters`);
    return;
  }
  const source = oneOf(l.componentSource, ["catalog", "project"], `${w}.componentSource`);
  text(l.componentType, `${w}.componentType`, MAX_LAYOUT_FIELD_CHARS);
  if (source === "catalog" && !CATALOG_ID_PATTERN.test(l.componentType as string)) {
    fail(`${w}.componentType of a catalog component must be its kebab-case id (or use componentSource "project")`);
  }
  oneOf(l.canvas, ["page", "wireframe"], `${w}.canvas`);
  // A blank purpose is left out, not stored as "".
  if (l.purpose !== undefined) text(l.purpose, `${w}.purpose`, MAX_LAYOUT_FIELD_CHARS);
}

/** Why `layout` cannot be queued, or undefined when it is valid. */
export function layoutProblem(layout: unknown): string | undefined {
  try {
    checkLayout(layout);
    return undefined;
  } catch (e) {
    if (e instanceof TestKitError) return e.message;
    throw e;
  }
}
