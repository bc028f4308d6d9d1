//! Development warnings of the React entry (same prefix as the runtime's).
import { PACKAGE_NAME } from "@a3s-lab/testkit";

/** Prints a development warning that starts with the package name. */
export function devWarn(message: string): void {
  if (typeof console !== "undefined") console.warn(`${PACKAGE_NAME}: ${message}`);
}
