/**
 * Pure builders for the two Layout Mode targets (`LayoutPlacement`, `LayoutRearrange`) and the
 * rectangle rules they enforce. All rectangles are in layout-viewport CSS pixels, the same space
 * as `getBoundingClientRect()`; nothing here reads the DOM, so every rule is unit-tested.
 *
 * Rules, chosen from what verification later needs:
 * - Every rect must have finite numbers and a positive width and height (an empty rect cannot be
 *   addressed, so it is refused rather than stored).
 * - The destination must lie inside the current viewport (half a pixel of slack for sub-pixel
 *   rounding): verification looks for the change in the viewport the reviewer saw, so a
 *   destination that is partly off screen is refused, never clipped silently.
 * - The original region of a rearrange only has to overlap the viewport: it is the measured box of
 *   an existing node, which may be taller than the screen or partly scrolled out.
 * @module
 */
import type { Rect } from "../../protocol";
import { charCount } from "../../repair/check";
import type { LayoutPlacement, LayoutRearrange } from "../../repair/types";

/** Sub-pixel slack allowed at the viewport edges. */
export const VIEWPORT_SLACK_PX = 0.5;
/** Longest component type or page purpose accepted, in characters. */
export const MAX_LAYOUT_TEXT_CHARS = 256;

/** The layout viewport's size in CSS px. */
export interface ViewportSize {
  width: number;
  height: number;
}

/** Why a layout target was refused; stable, so the editor can pick a localized message. */
export type LayoutIssueCode =
  | "rect_not_finite"
  | "rect_empty"
  | "rect_outside_viewport"
  | "rect_off_screen"
  | "component_type_missing"
  | "text_too_long"
  | "canvas_invalid";

/** Which field of the target an issue is about. */
export type LayoutField = "componentType" | "canvas" | "purpose" | "destination" | "originalRegion" | "nodeId";

/** One refused field: a stable code, the field, and an English sentence for logs and tests. */
export interface LayoutIssue {
  code: LayoutIssueCode;
  field: LayoutField;
  message: string;
}

/** A built target, or every reason it could not be built. */
export type LayoutResult<T> = { ok: true; value: T } | { ok: false; issues: LayoutIssue[] };

/** What a placement is built from. */
export interface PlacementInput {
  componentType: string;
  /** A catalog pick (`componentType` is its id) or a project component typed by name. */
  componentSource: "catalog" | "project";
  canvas: "page" | "wireframe";
  /** Optional page purpose; stored verbatim, left out when blank. */
  purpose?: string;
  destination: Rect;
}

/** What a rearrange is built from. */
export interface RearrangeInput {
  originalRegion: Rect;
  /** The node currently at the original region, when it still resolves. */
  nodeId?: string;
  destination: Rect;
}

function copyRect(r: Rect): Rect {
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

/** Checks one rect: finite, non-empty, and inside (`contain`) or overlapping (`overlap`) the viewport. */
export function checkRect(rect: Rect, viewport: ViewportSize, field: LayoutField, rule: "contain" | "overlap"): LayoutIssue | undefined {
  const { x, y, width, height } = rect;
  if (![x, y, width, height, viewport.width, viewport.height].every((n) => typeof n === "number" && Number.isFinite(n))) {
    return { code: "rect_not_finite", field, message: `${field} must have finite x, y, width and height` };
  }
  if (width <= 0 || height <= 0) return { code: "rect_empty", field, message: `${field} must have a positive width and height` };
  if (rule === "contain") {
    const s = VIEWPORT_SLACK_PX;
    if (x < -s || y < -s || x + width > viewport.width + s || y + height > viewport.height + s) {
      return { code: "rect_outside_viewport", field, message: `${field} must lie inside the ${viewport.width}×${viewport.height} viewport` };
    }
  } else if (x >= viewport.width || y >= viewport.height || x + width <= 0 || y + height <= 0) {
    return { code: "rect_off_screen", field, message: `${field} must overlap the ${viewport.width}×${viewport.height} viewport` };
  }
  return undefined;
}

function checkText(text: string, field: LayoutField): LayoutIssue | undefined {
  if (charCount(text) > MAX_LAYOUT_TEXT_CHARS) return { code: "text_too_long", field, message: `${field} must be at most ${MAX_LAYOUT_TEXT_CHARS} characters` };
  return undefined;
}

function result<T>(issues: Array<LayoutIssue | undefined>, build: () => T): LayoutResult<T> {
  const found = issues.filter((i): i is LayoutIssue => i !== undefined);
  return found.length > 0 ? { ok: false, issues: found } : { ok: true, value: build() };
}

/**
 * Builds a placement; the component type and purpose are kept exactly as given, and a blank
 * purpose is left out (the ledger refuses `""`).
 */
export function buildPlacement(input: PlacementInput, viewport: ViewportSize): LayoutResult<LayoutPlacement> {
  const purpose = input.purpose !== undefined && input.purpose.trim() !== "" ? input.purpose : undefined;
  return result(
    [
      input.componentType.trim() === ""
        ? { code: "component_type_missing", field: "componentType", message: "componentType must name a catalog type or a project component" }
        : checkText(input.componentType, "componentType"),
      input.canvas === "page" || input.canvas === "wireframe" ? undefined : { code: "canvas_invalid", field: "canvas", message: "canvas must be page or wireframe" },
      purpose === undefined ? undefined : checkText(purpose, "purpose"),
      checkRect(input.destination, viewport, "destination", "contain"),
    ],
    () => ({
      mode: "placement",
      componentType: input.componentType,
      componentSource: input.componentSource,
      canvas: input.canvas,
      ...(purpose !== undefined ? { purpose } : {}),
      destination: copyRect(input.destination),
    }),
  );
}

/** Builds a rearrange of an existing region (and node, when known) to a destination. */
export function buildRearrange(input: RearrangeInput, viewport: ViewportSize): LayoutResult<LayoutRearrange> {
  return result(
    [checkRect(input.originalRegion, viewport, "originalRegion", "overlap"), checkRect(input.destination, viewport, "destination", "contain")],
    () => ({
      mode: "rearrange",
      originalRegion: copyRect(input.originalRegion),
      ...(input.nodeId !== undefined && input.nodeId !== "" ? { nodeId: input.nodeId } : {}),
      destination: copyRect(input.destination),
    }),
  );
}
