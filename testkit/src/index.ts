//! `@a3s-lab/testkit`: the framework-free Page Context runtime (development only).
export { installTestKit, getPageContextBridge } from "./bridge/install";
export type { PageContextBridge, WaitForDiffRequest } from "./bridge/bridge";
export { CAPABILITIES } from "./bridge/bridge";
export type { TestKitOptions } from "./bridge/options";
export { isProductionBuild, productionGate, MAX_REASON_CHARS, type KeepInProduction } from "./bridge/production";
export type { BoundaryRegistration, SourceRegistration, SourceMapRegistration, Unregister } from "./bridge/registry";
export { TestKitError, type TestKitErrorCode } from "./errors";
export { DEFAULT_LIMITS, MAX_LIMITS, MIN_LIMITS } from "./limits";
export { MAX_TIMEOUT_MS } from "./timeouts";
export { domPlatform, type Platform, type StyleView } from "./platform";
export { parseSourceMap, originalPositionFor, type ParsedSourceMap, type OriginalPosition } from "./source/sourceMap";
export { BOUNDARY_WRAPPER_TAG, OVERLAY_HOST_TAG } from "./snapshot/walk";
export {
  BRIDGE_SYMBOL,
  HANDSHAKE_PROTOCOL,
  PACKAGE_NAME,
  PAGE_CONTEXT_DIFF_PROTOCOL,
  PAGE_CONTEXT_PROTOCOL,
  REPAIR_PROTOCOL,
  SDK_VERSION,
  SOURCE_MAPPING_PROTOCOL,
  UI_UNDERSTANDING_PROTOCOL,
} from "./version";
export type * from "./protocol";
export type * from "./repair/types";
export { REPAIR_ACTION_ANSWERS, REPAIR_CHANGE_KINDS, REPAIR_STATUSES, SUCCESS_CRITERION_KINDS, TARGET_STATES } from "./repair/types";
