// Record reuse, case by case: each change below alters the record of an element that the
// mutation does not touch (or no mutation reports at all). The reusing bridge must list that
// element in its diff and agree exactly with a bridge that rebuilds every record.
import { afterEach, describe, expect, it } from "vitest";
import { fakePlatform } from "../testing/fakePlatform";
import { createTwin, twinStep, type Twin } from "../testing/twins";
import type { SnapshotRequest } from "../protocol";
import { controlStateOf, isVolatile } from "./recordCache";

let twins: Twin[] = [];

afterEach(() => {
  for (const t of twins) t.bridge.dispose();
  twins = [];
  document.body.innerHTML = "";
});

function setup(html: string, redact: string[] = []): { cached: Twin; fresh: Twin } {
  document.body.innerHTML = html;
  const { platform } = fakePlatform(window);
  const cached = createTwin(true, platform, redact);
  const fresh = createTwin(false, platform, redact);
  twins = [cached, fresh];
  // Warm the cache and set the diff baselines.
  twinStep(cached);
  twinStep(fresh);
  return { cached, fresh };
}

function $(selector: string): Element {
  const el = document.querySelector(selector);
  if (el === null) throw new Error(`no ${selector}`);
  return el;
}

/** Steps both twins, checks they agree, and returns the elements the reusing twin's diff lists. */
function changedAfter(t: { cached: Twin; fresh: Twin }, request: SnapshotRequest = {}): Element[] {
  const { changedElements, ...a } = twinStep(t.cached, request);
  const { changedElements: _fresh, ...b } = twinStep(t.fresh, request);
  expect(a).toEqual(b);
  expect(a.status).toBe("complete");
  return changedElements;
}

let bumps = 0;

/**
 * A mutation that advances the revision without marking the elements under test: an attribute
 * change on the body marks only the body's chain of ancestors (with no redaction selectors, see
 * `changes.ts`), so every record below stays reusable unless the code under test rejects it. (A
 * childList change on the body would mark its whole subtree and rebuild every record.)
 */
function bump(): void {
  document.body.dataset.bump = String(++bumps);
}

describe("record reuse", () => {
  it("rebuilds a control whose label text changed elsewhere", () => {
    const t = setup(`<label for="e">Email</label><div><input id="e"></div>`);
    $("label").textContent = "Work email";
    expect(changedAfter(t)).toContain($("input"));
  });

  it("rebuilds an element named by aria-labelledby when the named text changes", () => {
    const t = setup(`<p id="l">Save</p><div role="button" aria-labelledby="l">x</div>`);
    $("p").textContent = "Save all";
    expect(changedAfter(t)).toContain($("[role=button]"));
  });

  it("sees value, checked and selected, which no mutation reports", () => {
    const t = setup(`<input id="a"><input id="b" type="checkbox"><select><option>A</option><option>B</option></select>`);
    ($("#a") as HTMLInputElement).value = "typed";
    ($("#b") as HTMLInputElement).checked = true;
    ($("option:last-child") as HTMLOptionElement).selected = true;
    bump();
    const changed = changedAfter(t);
    expect(changed).toEqual(expect.arrayContaining([$("#a"), $("#b"), $("option:last-child")]));
  });

  it("follows focus, which no mutation reports", () => {
    const t = setup(`<button id="one">One</button><button id="two">Two</button>`);
    ($("#one") as HTMLElement).focus();
    expect(changedAfter(t)).toContain($("#one"));
    ($("#two") as HTMLElement).focus();
    expect(changedAfter(t)).toEqual(expect.arrayContaining([$("#one"), $("#two")]));
  });

  it("rebuilds descendants whose visibility changed through an ancestor's style or class", () => {
    const t = setup(`<style>.hide { visibility: hidden }</style><div id="box"><section><button>Go</button></section></div>`);
    $("#box").setAttribute("style", "visibility: hidden");
    expect(changedAfter(t)).toContain($("button"));
    $("#box").removeAttribute("style");
    expect(changedAfter(t)).toContain($("button"));
    $("section").className = "hide";
    expect(changedAfter(t)).toContain($("button"));
  });

  it("rebuilds later siblings and their subtrees when an insert shifts nth-of-type paths", () => {
    const t = setup(`<ul><li><a href="/1">One</a></li><li><a href="/2">Two</a></li></ul>`);
    $("ul").prepend(document.createElement("li"));
    const changed = changedAfter(t);
    expect(changed).toEqual(expect.arrayContaining([$("a[href='/1']"), $("a[href='/2']")]));
  });

  it("re-anchors css paths when an id becomes unique or shared", () => {
    const t = setup(`<div id="dup"><button>In</button></div><p id="dup">Other</p>`);
    // The div is no node (nothing meaningful), but its id anchors the button's css path.
    $("p").remove();
    expect(changedAfter(t)).toContain($("div#dup > button"));
    const p = document.createElement("p");
    p.innerHTML = `<span id="dup">again</span>`;
    document.body.append(p);
    expect(changedAfter(t)).toContain($("div#dup > button"));
    (p.firstElementChild as Element).id = "unique";
    expect(changedAfter(t)).toContain($("div#dup > button"));
  });

  it("renames an ancestor when text deep inside it changes (names from content, legends)", () => {
    const t = setup(`<button><span><b>Save</b></span></button><fieldset><legend><i>Group</i></legend></fieldset>`);
    $("b").firstChild?.replaceWith("Saved");
    ($("i").firstChild as Text).data = "Renamed";
    expect(changedAfter(t)).toEqual(expect.arrayContaining([$("button"), $("fieldset")]));
  });

  it("follows redaction that an ancestor's attribute switches on for descendants", () => {
    const t = setup(`<ul><li><a href="/x">Two <b>bold</b></a></li></ul>`, ["[data-secret] b"]);
    $("ul").setAttribute("data-secret", "");
    expect(changedAfter(t)).toEqual(expect.arrayContaining([$("a"), $("b")]));
  });

  it("follows redaction that an id change switches on", () => {
    const t = setup(`<div><button>Go</button><p>Text <b>bold</b></p></div>`, ["#secret", "#inner b"]);
    $("button").id = "secret";
    $("p").id = "inner";
    expect(changedAfter(t)).toEqual(expect.arrayContaining([$("button"), $("b"), $("p")]));
    expect(t.cached.bridge.snapshot().nodes.filter((n) => n.redacted === true)).toHaveLength(2);
  });

  it("moves source candidates when an ancestor between owner and node becomes a node", () => {
    // The link's parent node stays the paragraph; only its distance to the owner changes.
    const t = setup(`<div id="owner"><div id="mid"><p>Text <a href="/x">Link</a></p></div></div>`);
    for (const twin of [t.cached, t.fresh]) {
      twin.bridge.registerBoundary({ id: "box", name: "Box", source: { file: "src/Box.tsx", line: 3 }, roots: () => [$("#owner")] });
    }
    changedAfter(t);
    $("#mid").setAttribute("role", "region");
    expect(changedAfter(t)).toContain($("a"));
  });

  it("drops every cached record when a registration changes", () => {
    const t = setup(`<div id="owner"><a href="/x">Link</a></div>`);
    const map = { version: 3, sources: ["src/Real.tsx"], names: [], mappings: "AAAA" };
    for (const twin of [t.cached, t.fresh]) {
      twin.bridge.registerBoundary({ id: "box", name: "Box", source: { file: "dist/app.js", line: 1, column: 1 }, roots: () => [$("#owner")] });
    }
    changedAfter(t);
    for (const twin of [t.cached, t.fresh]) twin.bridge.registerSourceMap({ id: "m", generatedFile: "dist/app.js", map });
    expect(changedAfter(t)).toContain($("a"));
  });

  it("sees shadow content, including a shadow root attached without any mutation", () => {
    const t = setup(`<div id="host"></div><section><p>light</p></section>`);
    const root = $("#host").attachShadow({ mode: "open" });
    root.innerHTML = `<button>Shadow</button>`;
    bump();
    expect(changedAfter(t).map((e) => e.localName)).toContain("button");
    (root.querySelector("button") as Element).textContent = "Pressed";
    expect(changedAfter(t)).toContain(root.querySelector("button"));
    const section = $("section");
    section.attachShadow({ mode: "open" }).innerHTML = `<i>no slot</i>`;
    bump();
    changedAfter(t, { detail: "scoped" });
  });

  it("agrees for node scopes below a changed ancestor", () => {
    const t = setup(`<ul><li><span>One</span></li></ul>`);
    const id = t.cached.bridge.snapshot({ detail: "scoped" }).nodes.find((n) => t.cached.bridge.resolve(n.id) === $("span"))?.id;
    const freshId = t.fresh.bridge.snapshot({ detail: "scoped" }).nodes.find((n) => t.fresh.bridge.resolve(n.id) === $("span"))?.id;
    const scope = (nodeId: string | undefined): SnapshotRequest => ({ scope: { kind: "node", nodeId: nodeId ?? "missing" } });
    t.cached.bridge.snapshot(scope(id));
    $("ul").prepend(document.createElement("li"));
    const a = t.cached.bridge.snapshot(scope(id)).nodes[0]?.locators;
    const b = t.fresh.bridge.snapshot(scope(freshId)).nodes[0]?.locators;
    expect(a).toEqual(b);
    expect(a?.at(-1)).toEqual({ kind: "css", value: "body > ul > li:nth-of-type(2) > span" });
  });

  it("reuses records of untouched elements and freezes them", () => {
    const t = setup(`<p>One</p><p>Two</p>`);
    const before = t.cached.bridge.snapshot().nodes;
    $("p").textContent = "Uno";
    const after = t.cached.bridge.snapshot().nodes;
    expect(after[1]?.locators).toBe(before[1]?.locators);
    expect(after[0]?.locators).not.toBe(before[0]?.locators);
    expect(Object.isFrozen(after[1]?.state)).toBe(true);
    expect(() => after[1]?.locators.push({ kind: "text", value: "mutated" })).toThrow(TypeError);
  });

  it("rebuilds controls when labels appear, move, retarget or vanish", () => {
    const t = setup(`<div id="a"><input id="e"></div><div id="b"></div><label id="l">Other</label>`);
    const label = document.createElement("label");
    label.htmlFor = "e";
    label.textContent = "Email";
    $("#b").append(label);
    expect(changedAfter(t)).toContain($("input"));
    $("#l").setAttribute("for", "e");
    expect(changedAfter(t)).toContain($("input"));
    $("#l").append($("input"));
    expect(changedAfter(t)).toContain($("input"));
    label.remove();
    expect(changedAfter(t)).toContain($("input"));
    const wrapper = document.createElement("div");
    wrapper.innerHTML = `<p><label for="e">Nested</label></p>`;
    $("#b").append(wrapper);
    expect(changedAfter(t)).toContain($("input"));
  });

  it("rebuilds custom elements, whose state may come from getters", () => {
    let busy = false;
    class BusyButton extends HTMLElement {
      get disabled(): boolean {
        return busy;
      }
    }
    if (customElements.get("busy-button") === undefined) customElements.define("busy-button", BusyButton);
    const t = setup(`<busy-button role="button">Send</busy-button>`);
    busy = true;
    bump();
    expect(changedAfter(t)).toContain($("busy-button"));
  });

  it("rebuilds a control whose label an ancestor's attribute redacts", () => {
    const t = setup(`<section><label for="e">Email</label></section><input id="e">`, ["[data-secret] label"]);
    $("section").setAttribute("data-secret", "");
    expect(changedAfter(t)).toContain($("input"));
  });

  it("tracks whether a secret control has a value without holding the value", () => {
    const t = setup(`<input type="password" id="p"><select><option>A</option><option>B</option></select>`);
    ($("#p") as HTMLInputElement).value = "hunter2";
    ($("select") as HTMLSelectElement).value = "B";
    bump();
    expect(changedAfter(t)).toEqual(expect.arrayContaining([$("#p"), $("select"), $("option:last-child")]));
    ($("#p") as HTMLInputElement).value = "hunter3";
    bump();
    expect(changedAfter(t)).not.toContain($("#p"));
    expect(controlStateOf($("#p"))).not.toContain("hunter");
  });

  it("classifies volatile elements and control state", () => {
    document.body.innerHTML = `<input><option></option><my-el></my-el><div aria-labelledby="x"></div><button is="fancy-button"></button><div></div><button></button>`;
    expect(Array.from(document.body.children, (el) => isVolatile(el))).toEqual([false, false, true, true, true, false, false]);
    expect(Array.from(document.body.children, (el) => controlStateOf(el))).toEqual(["00", "0", undefined, undefined, "", undefined, ""]);
  });
});
