//! Geometry evidence in three spaces — viewport, document and normalized — plus visibility,
//! occlusion, positioning and the nearest scroll container. CSS px throughout: the device pixel
//! ratio and the visual viewport are reported separately, never multiplied in.
import type { Geometry, Rect } from "../protocol";
import type { Platform, StyleView } from "../platform";
import { utf8ByteLength } from "../util/utf8";

/** Viewport numbers shared by every node of one snapshot. */
export interface ViewportFrame {
  width: number;
  height: number;
  scrollX: number;
  scrollY: number;
}

/** Rounds to 1/100 px so equal layouts serialize identically. */
export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** `r` with every number rounded by {@link round2}. */
export function roundRect(r: Rect): Rect {
  return { x: round2(r.x), y: round2(r.y), width: round2(r.width), height: round2(r.height) };
}

/** Intersection of two rects, or null when they do not overlap. */
export function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const r = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  if (r <= x || bottom <= y) return null;
  return { x, y, width: r - x, height: bottom - y };
}

/** True when two rects overlap (touching edges do not count). */
export function overlaps(a: Rect, b: Rect): boolean {
  return intersect(a, b) !== null;
}

const POSITIONS = new Set(["static", "relative", "absolute", "fixed", "sticky"]);

/** Input of {@link geometryOf}. */
export interface GeometryInput {
  el: Element;
  rect: Rect;
  style: StyleView;
  frame: ViewportFrame;
  /** Intersection of the ancestor scroll containers' rects (viewport space), if any. */
  clip: Rect | null;
  scrollContainerNodeId?: string;
  /** Hit-test for occlusion (skipped when false, e.g. to stay in budget). */
  hitTest: boolean;
  platform: Platform;
}

/** Computes geometry evidence of one element. */
export function geometryOf(input: GeometryInput): Geometry {
  const { rect, frame } = input;
  const viewportRect: Rect = { x: 0, y: 0, width: frame.width, height: frame.height };
  let visible = intersect(rect, viewportRect);
  if (visible !== null && input.clip !== null) visible = intersect(visible, input.clip);
  const area = rect.width * rect.height;
  const visibleRatio = area > 0 && visible !== null ? Math.min(1, (visible.width * visible.height) / area) : 0;
  let occluded = false;
  if (input.hitTest && visible !== null) {
    const root = input.el.getRootNode() as Document | ShadowRoot;
    const hit = input.platform.hitTest(root, visible.x + visible.width / 2, visible.y + visible.height / 2);
    occluded = hit !== null && hit !== input.el && !input.el.contains(hit) && !hit.contains(input.el);
  }
  const pos = input.style.getPropertyValue("position");
  const transform = input.style.getPropertyValue("transform");
  const geometry: Geometry = {
    viewport: roundRect(rect),
    document: roundRect({ x: rect.x + frame.scrollX, y: rect.y + frame.scrollY, width: rect.width, height: rect.height }),
    normalized: {
      x: frame.width > 0 ? round4(rect.x / frame.width) : 0,
      y: frame.height > 0 ? round4(rect.y / frame.height) : 0,
      width: frame.width > 0 ? round4(rect.width / frame.width) : 0,
      height: frame.height > 0 ? round4(rect.height / frame.height) : 0,
    },
    visibleRatio: round4(visibleRatio),
    occluded,
    position: (POSITIONS.has(pos) ? pos : "static") as Geometry["position"],
    transformed: transform !== "" && transform !== "none",
  };
  if (input.scrollContainerNodeId !== undefined) geometry.scrollContainerNodeId = input.scrollContainerNodeId;
  return geometry;
}

function round4(n: number): number {
  return Math.round(n * 10000) / 10000;
}

/**
 * Longest JSON text of a number: a sign, "0.", five zeros and 17 digits, e.g.
 * "-0.0000012345678901234567" (exponent forms are shorter; non-finite numbers are "null").
 */
const MAX_NUMBER_BYTES = 25;
/** JSON bytes of a geometry whose 13 numbers are 0, booleans false and position "absolute". */
const GEOMETRY_SKELETON_BYTES =
  JSON.stringify({
    viewport: { x: 0, y: 0, width: 0, height: 0 },
    document: { x: 0, y: 0, width: 0, height: 0 },
    normalized: { x: 0, y: 0, width: 0, height: 0 },
    visibleRatio: 0,
    occluded: false,
    position: "absolute",
    transformed: false,
  } satisfies Geometry).length - 13;
/** `,"scrollContainerNodeId":` */
const SCROLL_CONTAINER_KEY_BYTES = 25;

/**
 * An upper bound of the UTF-8 JSON size of `geometry`, without encoding its numbers (which is
 * most of the cost of sizing a snapshot): every number counted at its longest possible text.
 */
export function geometryBytesAtMost(geometry: Geometry): number {
  const id = geometry.scrollContainerNodeId;
  return GEOMETRY_SKELETON_BYTES + 13 * MAX_NUMBER_BYTES + (id !== undefined ? SCROLL_CONTAINER_KEY_BYTES + utf8ByteLength(JSON.stringify(id)) : 0);
}
