import { describe, expect, it } from "vitest";
import { implicitRole, roleOf } from "./role";

const q = (s: string): Element => document.querySelector(s) as Element;

describe("roles", () => {
  it("are implicit from tags and input types", () => {
    document.body.innerHTML = `
      <a id="l" href="/x">x</a><a id="nl">x</a><button id="b">b</button>
      <input id="t"><input id="s" type="search"><input id="n" type="number"><input id="r" type="range">
      <input id="c" type="checkbox"><input id="sub" type="submit"><input id="h" type="hidden"><input id="d" type="date">
      <input id="li" list="dl"><select id="sel"></select><select id="mul" multiple></select>
      <img id="img" alt="x"><img id="deco" alt=""><h3 id="h3">h</h3><section id="sec"></section><section id="reg" aria-label="R"></section>`;
    const expected: Record<string, string | undefined> = {
      l: "link", nl: undefined, b: "button", t: "textbox", s: "searchbox", n: "spinbutton", r: "slider",
      c: "checkbox", sub: "button", h: undefined, d: undefined, li: "combobox", sel: "combobox", mul: "listbox",
      img: "img", deco: undefined, h3: "heading", sec: undefined, reg: "region",
    };
    for (const [id, role] of Object.entries(expected)) expect(implicitRole(q(`#${id}`)), id).toBe(role);
  });
  it("make header and footer landmarks only outside sectioning content", () => {
    document.body.innerHTML = `<header id="top"></header><article><header id="inner"></header><footer id="f"></footer></article><footer id="bottom"></footer>`;
    expect(roleOf(q("#top"))).toBe("banner");
    expect(roleOf(q("#inner"))).toBeUndefined();
    expect(roleOf(q("#f"))).toBeUndefined();
    expect(roleOf(q("#bottom"))).toBe("contentinfo");
  });
  it("take the first explicit token, and none/presentation remove the role", () => {
    document.body.innerHTML = `<div id="a" role=" Tab  button"></div><button id="p" role="presentation" disabled></button><h1 id="n" role="none"></h1><button id="f" role="none"></button>`;
    expect(roleOf(q("#a"))).toBe("tab");
    expect(roleOf(q("#p"))).toBeUndefined();
    expect(roleOf(q("#f")), "a focusable element keeps its role").toBe("button");
    expect(roleOf(q("#n"))).toBeUndefined();
  });
});
