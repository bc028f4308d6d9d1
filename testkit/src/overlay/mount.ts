/**
 * `mountReviewOverlay`: checks that it may mount (exactly `enabled === true`, in a production
 * build a stated `keepInProduction.reason`, a live bridge
 * whose handshake matches this package and offers the repair queue, no other overlay on the
 * page), creates the `a3s-review-overlay` host with an open shadow root, and hands it to the
 * controller. Returns the unmount function; a refusal returns a no-op and says why once.
 */
import { getPageContextBridge, PACKAGE_NAME, PAGE_CONTEXT_PROTOCOL, OVERLAY_HOST_TAG, productionGate, type KeepInProduction } from "@a3s-lab/testkit";
import type { PageContextBridge } from "../bridge/api";
import type { RepairStorageKind } from "../repair/types";
import { startController } from "./controller";
import { resolveLocale, type OverlayLocaleOption } from "./i18n";

/** Options of {@link mountReviewOverlay}. */
export interface ReviewOverlayOptions {
  /** The Page Context bridge; the installed one when omitted. @default getPageContextBridge() */
  bridge?: PageContextBridge | null;
  /** Must be exactly `true` to mount; keep it false in CI and production. @default false */
  enabled?: boolean;
  /** Language of every visible string; `auto` follows the browser. @default "auto" */
  locale?: OverlayLocaleOption;
  /** Where saved drafts survive; the runtime's queue storage is detected when omitted. @default detected */
  repairStorage?: RepairStorageKind;
  /** Whether the panel starts open (a launcher button reopens a closed one). @default true */
  open?: boolean;
  /** The window to mount in. @default window */
  window?: Window;
  /**
   * In a production build the overlay mounts only with this: why the build keeps the reviewer's
   * surface (1–200 characters). Ignored in development builds. @default undefined
   */
  keepInProduction?: KeepInProduction;
  /**
   * The same-origin URL of A3S Test's candidates feed (the repair endpoint's path plus
   * `/candidates`, e.g. `/__a3s-test/repairs/candidates`): the latest run's failures on this
   * page are listed under "Candidates". Omitted: no such list. @default undefined
   */
  candidates?: string;
}

function warn(message: string): void {
  if (typeof console !== "undefined") console.warn(`${PACKAGE_NAME}: ${message}`);
}

/** Why `bridge` cannot serve the overlay, or null when it can. */
export function bridgeProblem(bridge: PageContextBridge | null): string | null {
  if (bridge === null) return "no Page Context bridge is installed; render A3SReviewOverlay inside <A3STestKit enabled> or call installTestKit() first.";
  try {
    if (bridge.probe().disposed) return "the Page Context bridge was disposed; mount the overlay again after installing a new one.";
    const hs = bridge.handshake();
    if (hs.packageName !== PACKAGE_NAME || hs.pageContextProtocol !== PAGE_CONTEXT_PROTOCOL) return `the installed bridge (${hs.packageName} ${hs.sdkVersion}) speaks another protocol; use one version of ${PACKAGE_NAME}.`;
    if (!hs.capabilities.includes("repair-queue")) return "the installed bridge has no repair queue; upgrade the runtime.";
  } catch (e) {
    return `the Page Context bridge did not answer its handshake (${e instanceof Error ? e.message : String(e)}).`;
  }
  return null;
}

/**
 * Mounts the Review Overlay and returns its unmount function. Nothing happens unless `enabled`
 * is exactly `true` and a live compatible bridge exists.
 */
export function mountReviewOverlay(options: ReviewOverlayOptions): () => void {
  const noop = () => undefined;
  if (options === null || typeof options !== "object" || options.enabled !== true) return noop;
  if (!productionGate("the Review Overlay", options.keepInProduction, warn).allowed) return noop;
  const win = options.window ?? (typeof window === "undefined" ? undefined : window);
  if (win === undefined) return noop;
  const bridge = options.bridge ?? getPageContextBridge(win);
  const problem = bridgeProblem(bridge);
  if (problem !== null || bridge === null) {
    warn(`the Review Overlay was not mounted: ${problem ?? "no bridge"}`);
    return noop;
  }
  const doc = win.document;
  if (doc.querySelector(OVERLAY_HOST_TAG) !== null) {
    warn("a Review Overlay is already mounted on this page; unmount it before mounting another.");
    return noop;
  }
  const host = doc.createElement(OVERLAY_HOST_TAG);
  const root = host.attachShadow({ mode: "open" });
  doc.body.append(host);
  const locale = resolveLocale(options.locale ?? "auto", win.navigator.languages ?? [win.navigator.language]);
  const stop = startController({ win, doc, root, bridge, locale, open: options.open !== false, ...(options.repairStorage !== undefined ? { repairStorage: options.repairStorage } : {}), ...(typeof options.candidates === "string" ? { candidates: options.candidates } : {}), onBridgeGone: () => unmount() });
  let mounted = true;
  function unmount(): void {
    if (!mounted) return;
    mounted = false;
    stop();
    host.remove();
  }
  return unmount;
}
