//! `<A3SReviewOverlay>`: the React form of `mountReviewOverlay`. It renders nothing itself; after
//! mount it waits for a live compatible bridge (the enclosing `A3STestKit` installs it in an
//! effect, which runs after this one) and mounts the overlay into its own shadow-root host.
import { useEffect } from "react";
import type { KeepInProduction, RepairStorageKind } from "@a3s-lab/testkit";
import { getPageContextBridge } from "@a3s-lab/testkit";
import { mountReviewOverlay, type OverlayLocaleOption } from "@a3s-lab/testkit/overlay";

/** Props of {@link A3SReviewOverlay}. */
export interface A3SReviewOverlayProps {
  /** Must be exactly `true` to mount; keep it false in CI and production. @default false */
  enabled?: boolean;
  /** Language of the overlay; `auto` follows the browser. @default "auto" */
  locale?: OverlayLocaleOption;
  /** Where saved drafts survive a reload; detected from the runtime when omitted. @default detected */
  repairStorage?: RepairStorageKind;
  /** Whether the panel starts open. @default true */
  defaultOpen?: boolean;
  /** Why a production build keeps the overlay; without it a production build mounts nothing. @default undefined */
  keepInProduction?: KeepInProduction;
  /** The same-origin URL of the latest run's candidates feed (`…/repairs/candidates`). @default undefined */
  candidates?: string;
}

/** Most animation frames to wait for the bridge before giving up with a warning. */
const MAX_WAIT_FRAMES = 120;

/** Mounts the Review Overlay while rendered with `enabled` exactly `true`. */
export function A3SReviewOverlay(props: A3SReviewOverlayProps): null {
  const { enabled, locale, repairStorage, defaultOpen, keepInProduction, candidates } = props;
  const reason = keepInProduction?.reason;
  useEffect(() => {
    if (enabled !== true || typeof window === "undefined") return undefined;
    let unmount: (() => void) | null = null;
    let frame = 0;
    let waited = 0;
    const tryMount = () => {
      const bridge = getPageContextBridge();
      if (bridge === null && waited < MAX_WAIT_FRAMES) {
        waited += 1;
        frame = window.requestAnimationFrame(tryMount);
        return;
      }
      unmount = mountReviewOverlay({ enabled: true, bridge, locale: locale ?? "auto", ...(repairStorage !== undefined ? { repairStorage } : {}), open: defaultOpen !== false, ...(reason !== undefined ? { keepInProduction: { reason } } : {}), ...(candidates !== undefined ? { candidates } : {}) });
    };
    // The provider installs the runtime in its own effect, after this child's effect.
    frame = window.requestAnimationFrame(tryMount);
    return () => {
      window.cancelAnimationFrame(frame);
      unmount?.();
    };
  }, [enabled, locale, repairStorage, defaultOpen, reason, candidates]);
  return null;
}
