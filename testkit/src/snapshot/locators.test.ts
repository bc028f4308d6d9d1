import { describe, expect, it } from "vitest";
import { cssPathOf, locatorsOf, MAX_LOCATORS } from "./locators";
import { accessibleNameOf, roleOf, stateOf } from "./describe";
import { RedactionRules } from "../privacy/redact";

const rules = new RedactionRules([], null);

describe("locators", () => {
  it("keep the documented preference order and at most five", () => {
    document.body.innerHTML = `<label for="e">Email</label><input id="e" data-testid="email" placeholder="you@x">`;
    const el = document.getElementById("e") as Element;
    const locators = locatorsOf({ el, role: "textbox", name: "Email", label: "Email", testId: "email", placeholder: "you@x", ownText: "text", redacted: false, stringBytes: 100 });
    expect(locators.map((l) => l.kind)).toEqual(["role", "label", "testId", "placeholder", "css"]);
    expect(locators.length).toBeLessThanOrEqual(MAX_LOCATORS);
  });
  it("build css paths that select exactly the element", () => {
    document.body.innerHTML = `<div><p>a</p><p><span>b</span><span>c</span></p></div><div id="dup"></div><div id="dup"></div><section id="solo"><i></i></section>`;
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      const path = cssPathOf(el);
      expect(document.querySelectorAll(path)).toHaveLength(1);
      expect(document.querySelector(path)).toBe(el);
    }
    expect(cssPathOf(document.querySelector("#solo i") as Element)).toBe("#solo > i");
  });
  it("anchors on ids unique in their root, in standards and quirks mode", () => {
    for (const doctype of ["<!DOCTYPE html>", ""]) {
      const doc = new DOMParser().parseFromString(`${doctype}<div id="a"><i></i></div><p id="A"><b></b></p><p id="d"></p><p id="d"><s></s></p>`, "text/html");
      expect(doc.compatMode).toBe(doctype === "" ? "BackCompat" : "CSS1Compat");
      const q = (s: string) => doc.querySelector(s) as Element;
      expect(cssPathOf(q("i"))).toBe("#a > i");
      expect(cssPathOf(q("b"))).toBe("#A > b");
      expect(cssPathOf(q("s"))).toBe("body > p:nth-of-type(3) > s");
    }
  });
  it("never offers content locators for a redacted root", () => {
    document.body.innerHTML = `<div data-testid="r">secret</div>`;
    const el = document.querySelector("div") as Element;
    expect(locatorsOf({ el, role: "button", name: "secret", testId: "r", ownText: "secret", redacted: true, stringBytes: 100 }).map((l) => l.kind)).toEqual(["testId", "css"]);
  });
});

describe("describe", () => {
  it("computes implicit roles and names", () => {
    document.body.innerHTML = `
      <a href="/x">Go <b>home</b></a><a>nolink</a>
      <button aria-label="Close">×</button>
      <input type="checkbox" id="c"><label for="c">Agree</label>
      <img alt="Logo" src="x.png"><h2>Title</h2>
      <input type="submit"><span id="l1">From</span><input aria-labelledby="l1">`;
    const q = (s: string) => document.querySelector(s) as Element;
    expect(roleOf(q("a[href]"))).toBe("link");
    expect(roleOf(q("a:not([href])"))).toBeUndefined();
    expect(accessibleNameOf(q("a[href]"), rules).name).toBe("Go home");
    expect(accessibleNameOf(q("button"), rules).name).toBe("Close");
    expect(accessibleNameOf(q("#c"), rules).name).toBe("Agree");
    expect(accessibleNameOf(q("img"), rules).name).toBe("Logo");
    expect(accessibleNameOf(q("input[type=submit]"), rules).name).toBe("Submit");
    expect(accessibleNameOf(q("input[aria-labelledby]"), rules).name).toBe("From");
    expect(stateOf(q("h2"), true, false, 100).level).toBe(2);
  });
  it("reports state without secret values", () => {
    document.body.innerHTML = `<input type="password" value="s3cret"><input type="checkbox" checked disabled><input value="hello" required>`;
    const [pw, cb, text] = Array.from(document.querySelectorAll("input"));
    expect(stateOf(pw as Element, true, false, 100)).toEqual({ visible: true, valueRedacted: true });
    expect(stateOf(cb as Element, true, true, 100)).toEqual({ visible: true, disabled: true, checked: true, focused: true });
    expect(stateOf(text as Element, true, false, 100)).toEqual({ visible: true, required: true, value: "hello" });
  });
});
