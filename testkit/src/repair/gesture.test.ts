/**
 * The negative half of the gesture rule in jsdom (which cannot make a trusted event): objects and
 * events that only claim to be a person's are refused. The positive half — a real click in the
 * Review Overlay marks a send `human` — is `browser/provenance.test.ts`, in Chromium.
 */
import { describe, expect, it } from "vitest";
import { OVERLAY_HOST_TAG } from "../snapshot/walk";
import { gestureCheck } from "./gesture";

describe("gestureCheck", () => {
  it("refuses look-alikes, untrusted events and events outside the overlay", () => {
    const check = gestureCheck(window);
    expect(check(undefined)).toBe(false);
    expect(check({ isTrusted: true, type: "click", eventPhase: 2 })).toBe(false);
    expect(check(Object.create(Event.prototype, { isTrusted: { value: true } }))).toBe(false);
    const host = document.createElement(OVERLAY_HOST_TAG);
    document.body.append(host);
    const seen: boolean[] = [];
    host.addEventListener("click", (e) => seen.push(check(e)));
    host.dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true }));
    host.remove();
    // Dispatched by script: isTrusted is false, whatever the target.
    expect(seen).toEqual([false]);
  });
  it("refuses everything where the browser's accessors are missing", () => {
    const fake = { Event: undefined } as unknown as Window;
    expect(gestureCheck(fake)(new Event("click"))).toBe(false);
  });
});
