/** `<A3SReviewOverlay>` mounts the overlay only when enabled and a bridge appears, and unmounts it. */
import { act } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OVERLAY_HOST_TAG } from "@a3s-lab/testkit";
import { perTestRoot } from "../testing/reactRoot";
import { A3SReviewOverlay, A3STestKit } from "./index";

const root = perTestRoot();

const host = () => document.querySelector(OVERLAY_HOST_TAG);
const frame = () => new Promise<void>((ok) => requestAnimationFrame(() => ok()));

describe("A3SReviewOverlay", () => {
  it("mounts inside A3STestKit once the provider installed the bridge, and unmounts with it", async () => {
    root.render(<A3STestKit enabled page={{ id: "react-overlay" }}><A3SReviewOverlay enabled locale="en" /></A3STestKit>);
    await act(frame);
    expect(host()?.shadowRoot?.querySelector('[data-part="panel"]')).not.toBeNull();
    root.unmount();
    expect(host()).toBeNull();
  });

  it("mounts nothing unless enabled is exactly true", async () => {
    root.render(<A3STestKit enabled page={{ id: "react-off" }}><A3SReviewOverlay locale="en" /></A3STestKit>);
    await act(frame);
    expect(host()).toBeNull();
  });

  it("renders nothing on the server", () => {
    expect(renderToString(<A3SReviewOverlay enabled locale="zh-CN" />)).toBe("");
  });
});
