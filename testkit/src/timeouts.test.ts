import { describe, expect, it } from "vitest";
import { validateTimeoutMs } from "./timeouts";
import { resolveInstallLimits, resolveRequestLimits, DEFAULT_LIMITS } from "./limits";

describe("timeouts", () => {
  it("accepts integers 0–300,000 and rejects the rest", () => {
    expect(validateTimeoutMs(0)).toBe(0);
    expect(validateTimeoutMs(300_000)).toBe(300_000);
    for (const bad of [-1, 300_001, 1.5, Number.NaN, Infinity, "10", null]) expect(() => validateTimeoutMs(bad)).toThrow(/invalid_timeout/);
  });
});

describe("limits", () => {
  it("validates install limits against the hard maxima", () => {
    expect(resolveInstallLimits(undefined)).toEqual(DEFAULT_LIMITS);
    expect(resolveInstallLimits({ nodes: 5000, uiTimeMs: 100 })).toMatchObject({ nodes: 5000, uiTimeMs: 100 });
    expect(() => resolveInstallLimits({ nodes: 5001 })).toThrow(/invalid_limits/);
    expect(() => resolveInstallLimits({ responseBytes: 100 })).toThrow(/invalid_limits/);
    expect(() => resolveInstallLimits({ bogus: 1 } as never)).toThrow(/unknown limit/);
  });
  it("lets a request lower but never raise", () => {
    const installed = resolveInstallLimits({ nodes: 100 });
    expect(resolveRequestLimits(installed, { nodes: 10 }).nodes).toBe(10);
    expect(resolveRequestLimits(installed, { nodes: 4000 }).nodes).toBe(100);
    expect(() => resolveRequestLimits(installed, { nodes: -1 })).toThrow(/invalid_limits/);
  });
});
