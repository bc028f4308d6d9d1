/**
 * Production builds keep the Context Runtime and the Review Overlay only with a stated reason:
 * with `process.env.NODE_ENV` set to "production" (what a bundler writes into a production
 * build), `installTestKit` and `mountReviewOverlay` do nothing and warn, unless
 * `keepInProduction.reason` says why; the handshake then reports that reason. Development
 * builds are unchanged.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { getPageContextBridge, installTestKit, OVERLAY_HOST_TAG } from "@a3s-lab/testkit";
import { mountReviewOverlay } from "../overlay/index";
import { keepReason, MAX_REASON_CHARS } from "./production";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  getPageContextBridge()?.dispose();
  document.body.innerHTML = "";
});

describe("production builds", () => {
  it("install nothing without a stated reason, and say so once", () => {
    vi.stubEnv("NODE_ENV", "production");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(installTestKit({ enabled: true, page: { id: "prod" } })).toBeNull();
    expect(installTestKit({ enabled: true, page: { id: "prod" }, keepInProduction: { reason: "   " } })).toBeNull();
    expect(getPageContextBridge()).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/production build.*keepInProduction/);
  });
  it("keep the runtime with a reason, reported in the handshake; the overlay needs its own", () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const bridge = installTestKit({ enabled: true, page: { id: "prod" }, keepInProduction: { reason: " Staging build read by CI " } });
    expect(bridge).not.toBeNull();
    expect(bridge?.handshake().keptInProduction).toBe("Staging build read by CI");
    mountReviewOverlay({ enabled: true, locale: "en" })();
    expect(document.querySelector(OVERLAY_HOST_TAG)).toBeNull();
    const unmount = mountReviewOverlay({ enabled: true, locale: "en", keepInProduction: { reason: "Design review on staging" } });
    expect(document.querySelector(OVERLAY_HOST_TAG)).not.toBeNull();
    unmount();
  });
  it("leave development builds as they were", () => {
    vi.stubEnv("NODE_ENV", "development");
    const bridge = installTestKit({ enabled: true, page: { id: "dev" } });
    expect(bridge).not.toBeNull();
    expect(bridge?.handshake().keptInProduction).toBeUndefined();
  });
  it("bound the reason", () => {
    expect(keepReason({ reason: "x".repeat(MAX_REASON_CHARS) })).toHaveLength(MAX_REASON_CHARS);
    expect(keepReason({ reason: "x".repeat(MAX_REASON_CHARS + 1) })).toBeUndefined();
    expect(keepReason({ reason: 7 })).toBeUndefined();
    expect(keepReason("because")).toBeUndefined();
  });
});
