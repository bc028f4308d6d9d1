/** Marker geometry: rect overlap and clipping to the scroll containers around an element. */
import { afterEach, describe, expect, it } from "vitest";
import { clipToAncestors, intersect } from "./geometry";

function boxAt(el: Element, x: number, y: number, width: number, height: number): void {
  el.getBoundingClientRect = () => ({ x, y, left: x, top: y, width, height, right: x + width, bottom: y + height, toJSON: () => ({}) }) as DOMRect;
}

afterEach(() => document.body.replaceChildren());

describe("intersect", () => {
  it("keeps the overlap and says null when there is none", () => {
    expect(intersect({ x: 0, y: 0, width: 100, height: 100 }, { x: 50, y: 60, width: 100, height: 100 })).toEqual({ x: 50, y: 60, width: 50, height: 40 });
    expect(intersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 10, height: 10 })).toBeNull();
  });
});

describe("clipToAncestors", () => {
  it("clips to every ancestor that does not show its overflow, and only on the clipped axis", () => {
    const outer = document.createElement("div");
    const inner = document.createElement("div");
    const item = document.createElement("p");
    outer.style.overflowY = "auto";
    inner.style.overflowX = "hidden";
    inner.append(item);
    outer.append(inner);
    document.body.append(outer);
    boxAt(outer, 0, 100, 300, 50);
    boxAt(inner, 20, 0, 100, 1_000);
    Object.defineProperty(outer, "clientWidth", { value: 300 });
    Object.defineProperty(outer, "clientHeight", { value: 50 });
    Object.defineProperty(inner, "clientWidth", { value: 100 });
    Object.defineProperty(inner, "clientHeight", { value: 1_000 });
    expect(clipToAncestors(item, { x: 0, y: 120, width: 400, height: 60 }, window)).toEqual({ x: 20, y: 120, width: 100, height: 30 });
    expect(clipToAncestors(item, { x: 0, y: 300, width: 400, height: 60 }, window)).toBeNull();
  });

  it("leaves a box alone under ancestors that show their overflow, and stops at a fixed element", () => {
    const fixed = document.createElement("div");
    const clipper = document.createElement("div");
    const item = document.createElement("span");
    clipper.style.overflow = "hidden";
    fixed.style.position = "fixed";
    fixed.append(item);
    clipper.append(fixed);
    document.body.append(clipper);
    boxAt(clipper, 0, 0, 10, 10);
    const box = { x: 50, y: 50, width: 20, height: 20 };
    expect(clipToAncestors(item, box, window)).toEqual(box);
  });
});
