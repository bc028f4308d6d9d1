import { describe, expect, it } from "vitest";
import { hiddenFromA11y, norm, parentComposed } from "./dom";

describe("dom helpers", () => {
  it("collapse whitespace", () => {
    expect(norm("  a \n\t b  ")).toBe("a b");
    expect(norm(null)).toBe("");
  });
  it("treat display:none, visibility:hidden and aria-hidden ancestors as hidden", () => {
    document.body.innerHTML = `<div aria-hidden="true"><i id="a"></i></div><div style="display:none"><i id="b"></i></div><i id="c" style="visibility:hidden"></i><i id="d"></i>`;
    const h = (id: string): boolean => hiddenFromA11y(document.getElementById(id) as Element);
    expect([h("a"), h("b"), h("c"), h("d")]).toEqual([true, true, true, false]);
  });
  it("step from a shadow root to its host", () => {
    document.body.innerHTML = `<div id="host"></div>`;
    const host = document.getElementById("host") as Element;
    const root = host.attachShadow({ mode: "open" });
    root.innerHTML = `<b></b>`;
    expect(parentComposed(root.firstChild as Node)).toBe(host);
  });
});
