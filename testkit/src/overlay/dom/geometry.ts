/**
 * Viewport geometry of targets: rectangles in viewport CSS pixels, the page scroll they were
 * taken at (`regionScroll`), and where a stored region is now after the page scrolled.
 */
import type { Rect } from "../../protocol";

/** The page's scroll offset. */
export function pageScroll(win: Window): { x: number; y: number } {
  return { x: win.scrollX, y: win.scrollY };
}

/** A rect with rounded, finite numbers. */
export function rectOf(r: { x?: number; y?: number; left?: number; top?: number; width: number; height: number }): Rect {
  const x = r.x ?? r.left ?? 0;
  const y = r.y ?? r.top ?? 0;
  const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : 0);
  return { x: round(x), y: round(y), width: round(r.width), height: round(r.height) };
}

/** Where a region stored at scroll `at` is in the viewport when the page is scrolled to `now`. */
export function regionNow(region: Rect, at: { x: number; y: number } | undefined, now: { x: number; y: number }): Rect {
  if (at === undefined) return region;
  return { x: region.x - (now.x - at.x), y: region.y - (now.y - at.y), width: region.width, height: region.height };
}

/** The rect spanned by two corner points. */
export function rectFromPoints(a: { x: number; y: number }, b: { x: number; y: number }): Rect {
  return rectOf({ x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) });
}

/** The bounding rect of a polyline. */
export function boundsOf(points: ReadonlyArray<{ x: number; y: number }>): Rect {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return rectOf({ x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y });
}

/** An ellipse around `r` as a closed polyline (the keyboard form of a drawing). */
export function ellipseAround(r: Rect, steps = 24): Array<{ x: number; y: number }> {
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  const rx = r.width / 2 + 8;
  const ry = r.height / 2 + 8;
  const out: Array<{ x: number; y: number }> = [];
  for (let i = 0; i <= steps; i += 1) {
    const a = (i / steps) * Math.PI * 2;
    out.push({ x: Math.round((cx + rx * Math.cos(a)) * 10) / 10, y: Math.round((cy + ry * Math.sin(a)) * 10) / 10 });
  }
  return out;
}
