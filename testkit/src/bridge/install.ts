//! Installing and finding the bridge: one runtime per page, as a non-enumerable property
//! `window[Symbol.for("a3s.test.page-context")]`. Anything but `enabled === true` installs nothing,
//! and neither does a production build without a stated reason (`production.ts`).
import { devWarn } from "../errors";
import { BRIDGE_SYMBOL } from "../version";
import { createBridge, type PageContextBridge } from "./bridge";
import { resolveOptions, type TestKitOptions } from "./options";
import { productionGate } from "./production";

type BridgeHost = Window & { [BRIDGE_SYMBOL]?: PageContextBridge };

function defaultWindow(): Window | undefined {
  return typeof window === "undefined" ? undefined : window;
}

/**
 * Installs the Page Context runtime and returns its bridge, or `null` when not enabled or not in
 * a browser (SSR). If a live bridge is already installed it is returned unchanged.
 */
export function installTestKit(options: TestKitOptions): PageContextBridge | null {
  if (options === null || typeof options !== "object" || options.enabled !== true) return null;
  const win = options.window ?? defaultWindow();
  if (win === undefined) return null;
  const gate = productionGate("the Context Runtime", options.keepInProduction, devWarn);
  if (!gate.allowed) return null;
  const host = win as BridgeHost;
  const existing = host[BRIDGE_SYMBOL];
  if (existing !== undefined && !existing.probe().disposed) {
    devWarn("installTestKit() was called while a runtime is installed; reusing it. Dispose it first to change options.");
    return existing;
  }
  const resolved = resolveOptions(options);
  const bridge = createBridge({
    win,
    options: resolved,
    ...(gate.reason !== undefined ? { keptInProduction: gate.reason } : {}),
    ...(options.platform !== undefined ? { platform: options.platform } : {}),
    onDispose: () => {
      if (host[BRIDGE_SYMBOL] === bridge) delete host[BRIDGE_SYMBOL];
    },
  });
  Object.defineProperty(host, BRIDGE_SYMBOL, { value: bridge, configurable: true, enumerable: false, writable: false });
  return bridge;
}

/** The installed bridge of `win`, or `null`. */
export function getPageContextBridge(win: Window | undefined = defaultWindow()): PageContextBridge | null {
  if (win === undefined) return null;
  const bridge = (win as BridgeHost)[BRIDGE_SYMBOL];
  return bridge !== undefined && !bridge.probe().disposed ? bridge : null;
}
