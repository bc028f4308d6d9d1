//! `<A3STestKit>`: installs the Page Context runtime on mount and disposes it on unmount (only
//! if it installed it). SSR-safe: nothing touches `window` during render.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { getPageContextBridge, installTestKit, type Facts, type KeepInProduction, type Limits, type PageContextBridge, type RepairStorageKind } from "@a3s-lab/testkit";
import { BoundaryRegistrar, TestKitContext } from "./context";

/** Props of {@link A3STestKit}. */
export interface A3STestKitProps {
  /** Must be exactly `true` to install; keep false in production. @default false */
  enabled?: boolean;
  /** Identity of this page. */
  page: { id: string };
  /** CSS selectors never read (reported as `[redacted]`). @default [] */
  redact?: readonly string[];
  /** Installed limits. @default DEFAULT_LIMITS */
  limits?: Partial<Limits>;
  /** Application facts for snapshots (latest function is used). @default undefined */
  facts?: () => Facts;
  /** Whether the app is ready (latest function is used). @default document.readyState === "complete" */
  ready?: () => boolean;
  /** Allow the UI-understanding record. @default true */
  uiUnderstanding?: boolean;
  /** Where sent findings persist. @default "memory" */
  repairStorage?: RepairStorageKind;
  /** Same-origin URL that receives sent findings by POST. @default undefined */
  repairEndpoint?: string;
  /** Why a production build keeps the runtime; without it a production build installs nothing. @default undefined */
  keepInProduction?: KeepInProduction;
  /** The application. */
  children?: ReactNode;
}

/** Installs the runtime for its subtree's lifetime and connects `A3STestBoundary`s to it. */
export function A3STestKit(props: A3STestKitProps): ReactNode {
  const [registrar] = useState(() => new BoundaryRegistrar());
  const factsRef = useRef(props.facts);
  const readyRef = useRef(props.ready);
  factsRef.current = props.facts;
  readyRef.current = props.ready;
  const { enabled, page, redact, limits, uiUnderstanding, repairStorage, repairEndpoint, keepInProduction } = props;
  const key = JSON.stringify([enabled === true, page.id, redact ?? [], limits ?? {}, uiUnderstanding !== false, repairStorage ?? "memory", repairEndpoint ?? null, keepInProduction ?? null]);

  useEffect(() => {
    if (enabled !== true) return undefined;
    let created: PageContextBridge | null = null;
    let bridge = getPageContextBridge();
    if (bridge === null) {
      created = installTestKit({
        enabled: true,
        page: { id: page.id },
        ...(redact !== undefined ? { redact } : {}),
        ...(limits !== undefined ? { limits } : {}),
        ...(uiUnderstanding !== undefined ? { uiUnderstanding } : {}),
        ...(repairStorage !== undefined ? { repairStorage } : {}),
        ...(repairEndpoint !== undefined ? { repairEndpoint } : {}),
        ...(keepInProduction !== undefined ? { keepInProduction } : {}),
        facts: () => factsRef.current?.() ?? {},
        ready: () => (readyRef.current !== undefined ? readyRef.current() : document.readyState === "complete"),
      });
      bridge = created;
    }
    if (bridge !== null) registrar.attach(bridge);
    return () => {
      registrar.detach();
      created?.dispose();
    };
    // `key` covers every static option; function options are read through refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, registrar]);

  return <TestKitContext.Provider value={registrar}>{props.children}</TestKitContext.Provider>;
}
