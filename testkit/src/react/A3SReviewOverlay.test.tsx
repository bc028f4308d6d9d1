/** `<A3SReviewOverlay>` mounts the overlay only when enabled and a bridge appears, and unmounts it. */
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getPageContextBridge, OVERLAY_HOST_TAG } from "@a3s-lab/testkit";
import { A3SReviewOverlay, A3STestKit } from "./index";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLElement;
let root: Root;

beforeEach(() => {
  container = document.createElement("div");
  document.body.replaceChildren(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  getPageContextBridge()?.dispose();
  vi.restoreAllMocks();
});

const host = () => document.querySelector(OVERLAY_HOST_TAG);
const frame = () => new Promise<void>((ok) => requestAnimationFrame(() => ok()));

describe("A3SReviewOverlay", () => {
  it("mounts inside A3STestKit once the provider installed the bridge, and unmounts with it", async () => {
    act(() => root.render(<A3STestKit enabled page={{ id: "react-overlay" }}><A3SReviewOverlay enabled locale="en" /></A3STestKit>));
    await act(frame);
    expect(host()?.shadowRoot?.querySelector('[data-part="panel"]')).not.toBeNull();
    act(() => root.unmount());
    expect(host()).toBeNull();
    root = createRoot(container);
  });

  it("mounts nothing unless enabled is exactly true", async () => {
    act(() => root.render(<A3STestKit enabled page={{ id: "react-off" }}><A3SReviewOverlay locale="en" /></A3STestKit>));
    await act(frame);
    expect(host()).toBeNull();
  });

  it("renders nothing on the server", () => {
    expect(renderToString(<A3SReviewOverlay enabled locale="zh-CN" />)).toBe("");
  });
});
