//! Install options and their validation. Anything but `enabled === true` installs nothing.
import { TestKitError } from "../errors";
import { resolveInstallLimits } from "../limits";
import type { Facts, Limits } from "../protocol";
import type { Platform } from "../platform";
import type { RepairStorageKind } from "../repair/types";
import type { KeepInProduction } from "./production";

/** Options of {@link installTestKit}. */
export interface TestKitOptions {
  /** Must be exactly `true` to install; keep it false in production builds. @default false */
  enabled: boolean;
  /**
   * In a production build (`process.env.NODE_ENV === "production"` as the bundler wrote it),
   * nothing installs without this: why the build keeps the Context Runtime (1–200 characters,
   * reported in the handshake). Ignored in development builds. @default undefined
   */
  keepInProduction?: KeepInProduction;
  /** Identity of this page (stable across reloads of the same app page). */
  page: { id: string };
  /** Installed limits (each below its hard maximum). @default DEFAULT_LIMITS */
  limits?: Partial<Limits>;
  /** CSS selectors whose elements (and subtrees) are never read; reported as `[redacted]`. @default [] */
  redact?: readonly string[];
  /** Application facts for snapshots; must be cheap and side-effect free. @default undefined */
  facts?: () => Facts;
  /** Whether the app considers the page ready. @default () => document.readyState === "complete" */
  ready?: () => boolean;
  /** Allow the optional UI-understanding record. @default true */
  uiUnderstanding?: boolean;
  /** Where the repair queue persists. @default "memory" */
  repairStorage?: RepairStorageKind;
  /** Same-origin URL that receives sent findings by POST. @default undefined */
  repairEndpoint?: string;
  /** Layout/style access; injected by tests. @default domPlatform(window) */
  platform?: Platform;
  /** The window to install into. @default globalThis.window */
  window?: Window;
}

/** Options after validation. */
export interface ResolvedOptions {
  pageId: string;
  limits: Limits;
  redact: string[];
  facts: (() => Facts) | undefined;
  ready: (() => boolean) | undefined;
  uiUnderstanding: boolean;
  repairStorage: RepairStorageKind;
  repairEndpoint: string | undefined;
}

/** Validates options (throws `invalid_options` / `invalid_limits`). */
export function resolveOptions(options: TestKitOptions): ResolvedOptions {
  const page = options.page as unknown;
  if (typeof page !== "object" || page === null || typeof (page as { id?: unknown }).id !== "string" || (page as { id: string }).id.trim() === "") {
    throw new TestKitError("invalid_options", "page.id must be a non-empty string");
  }
  const redact = options.redact ?? [];
  if (!Array.isArray(redact) || !redact.every((s) => typeof s === "string")) {
    throw new TestKitError("invalid_options", "redact must be an array of CSS selectors");
  }
  const storage = options.repairStorage ?? "memory";
  if (storage !== "memory" && storage !== "session" && storage !== "local") {
    throw new TestKitError("invalid_options", 'repairStorage must be "memory", "session" or "local"');
  }
  if (options.facts !== undefined && typeof options.facts !== "function") throw new TestKitError("invalid_options", "facts must be a function");
  if (options.ready !== undefined && typeof options.ready !== "function") throw new TestKitError("invalid_options", "ready must be a function");
  if (options.repairEndpoint !== undefined && typeof options.repairEndpoint !== "string") {
    throw new TestKitError("invalid_options", "repairEndpoint must be a same-origin URL string");
  }
  return {
    pageId: (page as { id: string }).id,
    limits: resolveInstallLimits(options.limits),
    redact: [...redact],
    facts: options.facts,
    ready: options.ready,
    uiUnderstanding: options.uiUnderstanding !== false,
    repairStorage: storage,
    repairEndpoint: options.repairEndpoint,
  };
}
