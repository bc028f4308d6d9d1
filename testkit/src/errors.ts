//! The one error type of the runtime and the dev-warning helper, so every failure carries a
//! stable code the driver can branch on and every warning starts with the package name.
import { PACKAGE_NAME } from "./version";

/** Stable codes carried by {@link TestKitError}. */
export type TestKitErrorCode =
  | "invalid_options"
  | "invalid_request"
  | "invalid_timeout"
  | "invalid_limits"
  | "invalid_cursor"
  | "cursor_stale"
  | "cursor_mismatch"
  | "unknown_node"
  | "unknown_component"
  | "budget_too_small"
  | "invalid_registration"
  | "invalid_source_map"
  | "invalid_repair"
  | "unknown_repair"
  | "disposed";

/** An error raised by the runtime; `code` is stable, `message` is for people. */
export class TestKitError extends Error {
  /** Stable machine-readable code. */
  readonly code: TestKitErrorCode;

  constructor(code: TestKitErrorCode, message: string) {
    super(`${PACKAGE_NAME}: [${code}] ${message}`);
    this.name = "TestKitError";
    this.code = code;
  }
}

/** Prints a development warning that starts with the package name. */
export function devWarn(message: string): void {
  if (typeof console !== "undefined") console.warn(`${PACKAGE_NAME}: ${message}`);
}
