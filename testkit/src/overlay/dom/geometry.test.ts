/** Marker geometry: rect overlap and clipping to the scroll containers around an element. */
import { afterEach, describe, expect, it } from "vitest";
import { clipToAncestors, intersect } from "./geometry";

/** Gives `el` a layout jsdom does not compute: its box, and a client area of the same size. */
function layOut(el: Element, x: number, y: number, width: number, height: number): void {
  el.getBoundingClientRect = () => ({ x, y, left: x, top: y, width, height, right: x + width, bottom: y + height, toJSON: () => ({}) }) as DOMRect;
  Object.defineProperty(el, "clientWidth", { value: width });
  Object.defineProperty(el, "clientHeight", { value: height });
}

/** `parent > child > … > leaf` appended to the body, with the given styles; returns them in order. */
function chain(styles: Array<Partial<CSSStyleDeclaration>>): HTMLElement[] {
  const els = styles.map(() => document.createElement("div"));
  els.forEach((el, i) => {
    Object.assign(el.style, styles[i]);
    if (i > 0) els[i - 1]?.append(el);
  });
  if (els[0] !== undefined) document.body.append(els[0]);
  return els;
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
    const [outer, inner, item] = chain([{ overflowY: "auto" }, { overflowX: "hidden" }, {}]) as [HTMLElement, HTMLElement, HTMLElement];
    layOut(outer, 0, 100, 300, 50);
    layOut(inner, 20, 0, 100, 1_000);
    expect(clipToAncestors(item, { x: 0, y: 120, width: 400, height: 60 }, window)).toEqual({ x: 20, y: 120, width: 100, height: 30 });
    expect(clipToAncestors(item, { x: 0, y: 300, width: 400, height: 60 }, window)).toBeNull();
  });

  it("leaves a box alone under ancestors that show their overflow, and stops at a fixed element", () => {
    const [clipper, , item] = chain([{ overflow: "hidden" }, { position: "fixed" }, {}]) as [HTMLElement, HTMLElement, HTMLElement];
    layOut(clipper, 0, 0, 10, 10);
    const box = { x: 50, y: 50, width: 20, height: 20 };
    expect(clipToAncestors(item, box, window)).toEqual(box);
  });
});
