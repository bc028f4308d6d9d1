//! The origins a page served by this dev server can have. Same-origin is judged against the
//! server's own addresses, never against the request's `Host` header: a DNS-rebinding page
//! controls `Host` and `Origin` alike, but not the list of names the server was started with.
import type { AddressInfo } from "node:net";
import { isLoopbackHost } from "./channel";

/** What the origins are computed from (a subset of Vite's dev server). */
export interface OriginSource {
  /** `server.resolvedUrls`: the URLs Vite prints on start. */
  resolvedUrls: { local: string[]; network: string[] } | null;
  /** `server.config.server.origin`, when the user set one. */
  configuredOrigin: string | undefined;
  /** Whether the server speaks https. */
  https: boolean;
  /** The listening address, when the server listens. */
  address: AddressInfo | string | null | undefined;
  /** Extra origins the user allows (e.g. a tunnel or a reverse proxy in front of Vite). */
  extra: readonly string[];
}

function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Every origin of the server: its printed URLs, the configured origin, the loopback names of its port. */
export function serverOrigins(source: OriginSource): Set<string> {
  const out = new Set<string>();
  const add = (url: string | undefined): void => {
    const o = url === undefined ? undefined : originOf(url);
    if (o !== undefined) out.add(o);
  };
  for (const url of source.resolvedUrls?.local ?? []) add(url);
  for (const url of source.resolvedUrls?.network ?? []) add(url);
  add(source.configuredOrigin);
  for (const url of source.extra) add(url);
  const address = source.address;
  if (typeof address === "object" && address !== null) {
    const scheme = source.https ? "https" : "http";
    const host = address.family === "IPv6" || address.address.includes(":") ? `[${address.address}]` : address.address;
    const wildcard = address.address === "0.0.0.0" || address.address === "::";
    if (wildcard || isLoopbackHost(host)) {
      for (const name of ["localhost", "127.0.0.1", "[::1]"]) add(`${scheme}://${name}:${address.port}`);
    }
    if (!wildcard) add(`${scheme}://${host}:${address.port}`);
  }
  return out;
}
