import { describe, expect, it } from "vitest";
import { accName } from "./name";

const q = (s: string): Element => document.querySelector(s) as Element;
const name = (s: string): string => accName(q(s)).name;

describe("accessible names", () => {
  it("prefer aria-labelledby (hidden referents included) over aria-label over content", () => {
    document.body.innerHTML = `
      <span id="a">First</span><span id="h" hidden>Hidden  part</span>
      <button id="b1" aria-labelledby="a h missing" aria-label="Not this">Content</button>
      <button id="b2" aria-label="  Label  ">Content</button><button id="b3">  Save <b>now</b> </button>`;
    expect(accName(q("#b1"))).toEqual({ name: "First Hidden part", source: "labelledby" });
    expect(accName(q("#b2"))).toEqual({ name: "Label", source: "aria-label" });
    expect(accName(q("#b3"))).toEqual({ name: "Save now", source: "content" });
  });
  it("name controls from labels, values, alt and placeholder", () => {
    document.body.innerHTML = `
      <label for="e">Email</label><input id="e" placeholder="you@x">
      <label>Wrapped <input id="w"></label><input id="p" placeholder="Search here">
      <input id="s" type="submit"><input id="v" type="button" value="Go"><input id="i" type="image" alt="Send">
      <img id="img" alt="Logo"><input id="t" title="Tip">`;
    expect(accName(q("#e"))).toEqual({ name: "Email", source: "label" });
    expect(name("#w")).toBe("Wrapped");
    expect(accName(q("#p"))).toEqual({ name: "Search here", source: "placeholder" });
    expect(name("#s")).toBe("Submit");
    expect(name("#v")).toBe("Go");
    expect(name("#i")).toBe("Send");
    expect(name("#img")).toBe("Logo");
    expect(accName(q("#t"))).toEqual({ name: "Tip", source: "title" });
  });
  it("take legends and captions, and content only for roles that allow it", () => {
    document.body.innerHTML = `
      <fieldset id="f"><legend>Shipping</legend><input></fieldset><table id="t"><caption>Prices</caption></table>
      <div id="d">plain text</div><div id="g" role="group">group text</div><h2 id="h">Title</h2>`;
    expect(name("#f")).toBe("Shipping");
    expect(name("#t")).toBe("Prices");
    expect(name("#d")).toBe("");
    expect(name("#g")).toBe("");
    expect(name("#h")).toBe("Title");
  });
  it("skip hidden content, and read a control's value and an image's alt as content", () => {
    document.body.innerHTML = `
      <button id="b">Buy <span aria-hidden="true">★</span><span style="display:none">secret</span><img alt="now"></button>
      <label for="c">Qty <input value="3" id="inner"></label><input type="checkbox" id="c">`;
    expect(name("#b")).toBe("Buy now");
    expect(name("#c")).toBe("Qty 3");
  });
  it("cross open shadow roots through slots and resolve ids in the element's own root", () => {
    document.body.innerHTML = `<div id="host"><span>slotted</span></div>`;
    const host = q("#host");
    const root = host.attachShadow({ mode: "open" });
    root.innerHTML = `<span id="lbl">Inner</span><button id="sb">Press <slot></slot></button><input id="si" aria-labelledby="lbl">`;
    expect(accName(root.getElementById("sb") as Element).name).toBe("Press slotted");
    expect(accName(root.getElementById("si") as Element).name).toBe("Inner");
  });
  it("never read excluded subtrees", () => {
    document.body.innerHTML = `<button id="b">Pay <span class="secret">4242</span></button><span id="l" class="secret">card</span><input id="i" aria-labelledby="l" title="Card">`;
    const opts = { excluded: (el: Element) => el.matches(".secret"), excludedTree: (el: Element) => el.closest(".secret") !== null };
    expect(accName(q("#b"), opts).name).toBe("Pay");
    expect(accName(q("#i"), opts)).toEqual({ name: "Card", source: "title" });
  });
});
