//! Timeout validation: integers 0–300,000 ms, rejected (never clamped) otherwise.
import { TestKitError } from "./errors";

/** Largest accepted timeout in milliseconds. */
export const MAX_TIMEOUT_MS = 300_000;

/** Returns `value` if it is an integer in 0..=300,000, otherwise throws `invalid_timeout`. */
export function validateTimeoutMs(value: unknown, what = "timeoutMs"): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_TIMEOUT_MS) {
    throw new TestKitError(
      "invalid_timeout",
      `${what} must be an integer between 0 and ${MAX_TIMEOUT_MS} ms, got ${String(value)}`,
    );
  }
  return value;
}
