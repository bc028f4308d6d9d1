//! Names and versions that form the compatibility contract with the A3S Test driver.

/** npm package name, reported by the handshake and used as the dev-warning prefix. */
export const PACKAGE_NAME = "@a3s-lab/testkit";
/** Version of this runtime (kept in step with package.json by a unit test). */
export const SDK_VERSION = "0.1.0";
/** Protocol of snapshot responses. */
export const PAGE_CONTEXT_PROTOCOL = "a3s.test.page-context/1";
/** Protocol of diff records. */
export const PAGE_CONTEXT_DIFF_PROTOCOL = "a3s.test.page-context-diff/1";
/** Protocol of the optional UI-understanding record. */
export const UI_UNDERSTANDING_PROTOCOL = "a3s.test.ui-understanding/1";
/** Protocol of per-node source-mapping records. */
export const SOURCE_MAPPING_PROTOCOL = "a3s.test.source-mapping/1";
/** Protocol of the handshake record. */
export const HANDSHAKE_PROTOCOL = "a3s.test.testkit-handshake/1";
/** Protocol of repair records and batches. */
export const REPAIR_PROTOCOL = "a3s.test.repair/1";
/** Global symbol under which the bridge is installed on `window`. */
export const BRIDGE_SYMBOL: unique symbol = Symbol.for("a3s.test.page-context") as never;
