//! Production builds: the Context Runtime and the Review Overlay are development tools, so a
//! production build of an app installs neither unless the app states why it keeps them
//! (`keepInProduction: { reason }`) — for example a staging build that CI reads through the
//! Context Runtime. The reason is reported in the handshake, so whoever connects sees it.
//!
//! "Production build" is what the app's bundler says: Vite, webpack, Rollup and esbuild (with
//! `define`) replace `process.env.NODE_ENV` with a string literal when they build the app, so this
//! module reads exactly that expression. Code that no bundler touched (no `process` at all) is
//! not a production build.

/** The longest reason, in characters. */
export const MAX_REASON_CHARS = 200;

/** Why an app keeps a development tool in a production build. */
export interface KeepInProduction {
  /** In the team's words, 1–200 characters; shown in the handshake. */
  reason: string;
}

/** Whether the app was bundled for production (`process.env.NODE_ENV === "production"`). */
export function isProductionBuild(): boolean {
  try {
    // Read literally: bundlers replace this expression, not a computed lookup.
    return process.env.NODE_ENV === "production";
  } catch {
    return false;
  }
}

/** The stated reason, trimmed, or `undefined` when `keep` does not state a usable one. */
export function keepReason(keep: unknown): string | undefined {
  if (typeof keep !== "object" || keep === null) return undefined;
  const reason = (keep as { reason?: unknown }).reason;
  if (typeof reason !== "string") return undefined;
  const trimmed = reason.trim();
  return trimmed !== "" && [...trimmed].length <= MAX_REASON_CHARS ? trimmed : undefined;
}

/**
 * Whether `tool` may run in this build, and the reason kept for the handshake: always in a
 * development build; in a production build only with a stated reason (otherwise one warning says
 * what is missing and the tool stays off).
 */
export function productionGate(tool: string, keep: unknown, warn: (message: string) => void): { allowed: boolean; reason?: string } {
  if (!isProductionBuild()) return { allowed: true };
  const reason = keepReason(keep);
  if (reason === undefined) {
    warn(`${tool} is off in this production build; pass keepInProduction: { reason: "…" } (1-${MAX_REASON_CHARS} characters) to keep it.`);
    return { allowed: false };
  }
  return { allowed: true, reason };
}
