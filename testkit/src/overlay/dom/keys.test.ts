/** Keyboard routing: shortcuts, and letters that stay with editable controls. */
import { describe, expect, it } from "vitest";
import { commandOf, isEditable } from "./keys";

const key = (k: string, extra: Partial<KeyboardEvent> = {}) => ({ key: k, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, isComposing: false, ...extra });

describe("commandOf", () => {
  it("maps E M T A D L P H K C to their commands, in either case", () => {
    const button = document.createElement("button");
    expect(commandOf(key("e"), button)).toEqual({ kind: "mode", mode: "element" });
    expect(commandOf(key("M", { shiftKey: true }), button)).toEqual({ kind: "mode", mode: "multi" });
    expect(commandOf(key("t"), button)).toEqual({ kind: "mode", mode: "text" });
    expect(commandOf(key("a"), button)).toEqual({ kind: "mode", mode: "area" });
    expect(commandOf(key("d"), button)).toEqual({ kind: "mode", mode: "drawing" });
    expect(commandOf(key("l"), button)).toEqual({ kind: "layout" });
    expect(commandOf(key("p"), button)).toEqual({ kind: "pause" });
    expect(commandOf(key("h"), button)).toEqual({ kind: "markers" });
    expect(commandOf(key("k"), button)).toEqual({ kind: "dock" });
    expect(commandOf(key("C", { shiftKey: true }), button)).toEqual({ kind: "collapse" });
    expect(commandOf(key("x"), button)).toBeNull();
  });

  it("never takes letters from editable controls or modified keys", () => {
    document.body.innerHTML = `<input id="i"><input id="c" type="checkbox"><textarea id="t"></textarea><select id="s"></select><div id="ce" contenteditable="true"></div><div id="r" role="textbox"></div><div id="cb" role="combobox"></div>`;
    const $ = (id: string) => document.getElementById(id);
    for (const id of ["i", "t", "s", "r", "cb"]) expect(commandOf(key("e"), $(id)), id).toBeNull();
    // jsdom has no isContentEditable; the attribute route is covered in Chromium.
    expect(commandOf(key("e"), $("c"))).toEqual({ kind: "mode", mode: "element" });
    expect(commandOf(key("e", { ctrlKey: true }), $("c"))).toBeNull();
    expect(commandOf(key("e", { isComposing: true }), $("c"))).toBeNull();
    expect(isEditable(null)).toBe(false);
  });

  it("Escape and Enter are reported even from fields (the controller decides)", () => {
    const input = document.createElement("input");
    expect(commandOf(key("Escape"), input)).toEqual({ kind: "escape" });
    expect(commandOf(key("Enter", { shiftKey: true }), input)).toEqual({ kind: "enter", shift: true });
  });
});
