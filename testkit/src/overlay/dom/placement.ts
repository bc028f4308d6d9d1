/**
 * Where the finding editor opens as a popover: beside the mark, never over it. Tried in order —
 * right of the mark, left of it, below, above — each flipped side is kept inside the viewport
 * (clamped along the mark, shortened to the room there with its own scroll), and the first side
 * with room wins, in the free part of the viewport beside the panel when one has room. `null` means no side has room (a narrow viewport, or a mark as large as the
 * screen): the editor then stays in the docked panel. Pure geometry, so it is property-tested.
 */
import type { Rect } from "../../protocol";

/** Distance kept from the viewport's edges and from the mark, in CSS px. */
export const POPOVER_MARGIN = 8;
/** Least height a popover is shortened to before a side counts as too small. */
export const POPOVER_MIN_HEIGHT = 220;
/** Viewports narrower than this keep the editor in the panel. */
export const POPOVER_MIN_VIEWPORT = 640;

/** Which side of the mark the popover took. */
export type PopoverSide = "right" | "left" | "below" | "above";

/** A popover position: its box in viewport CSS px and the side it is on. */
export interface PopoverPlace extends Rect {
  side: PopoverSide;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(v, hi));
}

/**
 * The popover box for a popover of natural `size` beside `mark` in a `viewport`, or `null` when
 * it cannot be both inside the viewport and off the mark. `avoid` is a box (the panel) the
 * popover should leave uncovered: the largest free parts of the viewport beside it are tried
 * first, the whole viewport only when none of them has room.
 */
export function placePopover(mark: Rect, size: { width: number; height: number }, viewport: { width: number; height: number }, avoid?: Rect): PopoverPlace | null {
  const { width: vw, height: vh } = viewport;
  if (!(vw >= POPOVER_MIN_VIEWPORT) || !Number.isFinite(vh) || size.width + 2 * POPOVER_MARGIN > vw) return null;
  const whole: Rect = { x: 0, y: 0, width: vw, height: vh };
  const areas = avoid !== undefined ? freeAround(whole, avoid) : [];
  for (const area of [...areas, whole]) {
    const p = placeIn(mark, size, area);
    if (p !== null) return p;
  }
  return null;
}

/** The parts of `area` above, below, left and right of `box`, largest first. */
function freeAround(area: Rect, box: Rect): Rect[] {
  const right = area.x + area.width;
  const bottom = area.y + area.height;
  const parts: Rect[] = [
    { x: area.x, y: area.y, width: area.width, height: box.y - area.y },
    { x: area.x, y: box.y + box.height, width: area.width, height: bottom - (box.y + box.height) },
    { x: area.x, y: area.y, width: box.x - area.x, height: area.height },
    { x: box.x + box.width, y: area.y, width: right - (box.x + box.width), height: area.height },
  ];
  return parts.filter((p) => p.width > 0 && p.height > 0).sort((a, b) => b.width * b.height - a.width * a.height);
}

/** The first side of `mark` where the popover fits inside `area`, or null. */
function placeIn(mark: Rect, size: { width: number; height: number }, area: Rect): PopoverPlace | null {
  const m = POPOVER_MARGIN;
  const left = area.x + m;
  const top = area.y + m;
  const right = area.x + area.width - m;
  const bottom = area.y + area.height - m;
  const w = size.width;
  const need = Math.min(size.height, POPOVER_MIN_HEIGHT);
  const fullH = Math.min(size.height, bottom - top);
  if (w > right - left || fullH < need) return null;
  const candidates: PopoverPlace[] = [];
  // Beside: as tall as the area allows, aligned with the mark's top, clamped inside.
  const sideY = clamp(mark.y, top, bottom - fullH);
  const markRight = mark.x + mark.width;
  if (Math.max(left, markRight + m) + w <= right) candidates.push({ side: "right", x: Math.max(left, markRight + m), y: sideY, width: w, height: fullH });
  if (Math.min(right - w, mark.x - m - w) >= left) candidates.push({ side: "left", x: Math.min(right - w, mark.x - m - w), y: sideY, width: w, height: fullH });
  // Below / above: as tall as the room there allows.
  const x = clamp(mark.x, left, right - w);
  const below = Math.max(top, mark.y + mark.height + m);
  const above = Math.min(bottom, mark.y - m);
  if (bottom - below >= need) candidates.push({ side: "below", x, y: below, width: w, height: Math.min(size.height, bottom - below) });
  if (above - top >= need) {
    const height = Math.min(size.height, above - top);
    candidates.push({ side: "above", x, y: above - height, width: w, height });
  }
  return candidates.find((c) => !overlaps(c, mark)) ?? null;
}

/** True when `a` and `b` share any area. */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The box around every box of a mark (a multi-node or multi-line mark), or null for none. */
export function unionOf(boxes: readonly Rect[]): Rect | null {
  if (boxes.length === 0) return null;
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const r = Math.max(...boxes.map((b) => b.x + b.width));
  const btm = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: r - x, height: btm - y };
}
