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

/** The overlap of two rects, or `null` when they do not overlap. */
export function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? rectOf({ x, y, width: right - x, height: bottom - y }) : null;
}

/** Most ancestors walked when clipping one box (deep trees cost at most this per marker). */
const MAX_CLIP_DEPTH = 256;

/**
 * The part of `box` (viewport CSS px) that `el`'s clipping ancestors leave visible, or `null`
 * when none of it shows: a marker over an element scrolled out of a nested scroll container
 * must not float over the container's neighbours. Each ancestor whose `overflow-x` or
 * `overflow-y` is not `visible` clips to its padding box (scroll bars excluded), walking out of
 * shadow roots through their hosts; the walk stops at a `position: fixed` element, whose
 * containing block is the viewport.
 */
export function clipToAncestors(el: Element, box: Rect, win: Window): Rect | null {
  let clip: Rect | null = box;
  let node: Element | null = el;
  for (let depth = 0; node !== null && clip !== null && depth < MAX_CLIP_DEPTH; depth += 1) {
    const style = win.getComputedStyle(node);
    if (node !== el) {
      const clipsX = style.overflowX !== "visible";
      const clipsY = style.overflowY !== "visible";
      if (clipsX || clipsY) {
        const r = node.getBoundingClientRect();
        const inner: Rect = {
          x: clipsX ? r.left + node.clientLeft : clip.x,
          y: clipsY ? r.top + node.clientTop : clip.y,
          width: clipsX ? node.clientWidth : clip.width,
          height: clipsY ? node.clientHeight : clip.height,
        };
        clip = intersect(clip, inner);
      }
    }
    if (style.position === "fixed") break;
    const parent: Element | null = node.parentElement;
    const root = node.getRootNode();
    node = parent ?? (root instanceof ShadowRoot ? root.host : null);
  }
  return clip;
}
