//! Limits: defaults, hard maxima, install-time validation, and per-request lowering. A request
//! can lower a limit below the installed value but never raise it.
import { TestKitError } from "./errors";
import type { Limits } from "./protocol";

/** Installed limits when no option is given. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  nodes: 500,
  stringBytes: 4096,
  responseBytes: 1_048_576,
  uiNodes: 200,
  uiTimeMs: 32,
});

/** Hard ceilings: neither an option nor a request can go above these. */
export const MAX_LIMITS: Readonly<Limits> = Object.freeze({
  nodes: 5000,
  stringBytes: 16_384,
  responseBytes: 8_388_608,
  uiNodes: 1000,
  uiTimeMs: 100,
});

/** Floors: smaller values cannot produce a useful response and are rejected. */
export const MIN_LIMITS: Readonly<Limits> = Object.freeze({
  nodes: 0,
  stringBytes: 16,
  responseBytes: 4096,
  uiNodes: 0,
  uiTimeMs: 0,
});

const KEYS: ReadonlyArray<keyof Limits> = ["nodes", "stringBytes", "responseBytes", "uiNodes", "uiTimeMs"];

function check(key: keyof Limits, value: unknown, ceiling: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < MIN_LIMITS[key] || value > MAX_LIMITS[key]) {
    throw new TestKitError(
      "invalid_limits",
      `limits.${key} must be an integer between ${MIN_LIMITS[key]} and ${MAX_LIMITS[key]}, got ${String(value)}`,
    );
  }
  return Math.min(value, ceiling);
}

function assertKnownKeys(input: object): void {
  for (const k of Object.keys(input)) {
    if (!(KEYS as readonly string[]).includes(k)) {
      throw new TestKitError("invalid_limits", `unknown limit "${k}" (known: ${KEYS.join(", ")})`);
    }
  }
}

/** `base` with the limits of `input` applied, each at most its `ceiling`. */
function applyLimits(base: Limits, input: Partial<Limits> | undefined, ceiling: Limits): Limits {
  const out: Limits = { ...base };
  if (input === undefined) return out;
  if (typeof input !== "object" || input === null) throw new TestKitError("invalid_limits", "limits must be an object");
  assertKnownKeys(input);
  for (const k of KEYS) {
    if (input[k] !== undefined) out[k] = check(k, input[k], ceiling[k]);
  }
  return out;
}

/** Validates install-time limits against the hard maxima and fills defaults. */
export function resolveInstallLimits(input: Partial<Limits> | undefined): Limits {
  return applyLimits(DEFAULT_LIMITS, input, MAX_LIMITS);
}

/** Lowers `installed` by a request's limits; values above the installed ones are lowered to them. */
export function resolveRequestLimits(installed: Limits, request: Partial<Limits> | undefined): Limits {
  return applyLimits(installed, request, installed);
}
