//! `a3sTest()`: the Vite plugin that serves the Test Kit's `repairEndpoint` inside the dev
//! server and forwards what arrives to the running `a3s-test dev` session. Dev server only
//! (`apply: "serve"`): a production build gets nothing from it.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { channelPath } from "./channel";
import { createRepairMiddleware } from "./middleware";
import { serverOrigins } from "./origins";

/** The default endpoint path; the page's `repairEndpoint` must be the same. */
export const DEFAULT_REPAIR_ENDPOINT = "/__a3s-test/repairs";

/**
 * The part of Vite's dev server the plugin uses. Typed structurally rather than with `vite`'s own
 * types so the plugin fits any Vite 6/7 copy, including an app whose Test Kit is linked from a
 * checkout that has its own `node_modules/vite`.
 */
export interface DevServerLike {
  config: { root: string; server: { origin?: string | undefined; https?: unknown } };
  middlewares: { use(fn: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void): unknown };
  resolvedUrls: { local: string[]; network: string[] } | null;
  httpServer: { address(): AddressInfo | string | null } | null;
}

/** The plugin object (a Vite `Plugin`). */
export interface A3STestVitePlugin {
  name: "a3s-test";
  apply: "serve";
  configureServer(server: DevServerLike): void;
}

/** Options of {@link a3sTest}. */
export interface A3STestPluginOptions {
  /** URL path the page's `repairEndpoint` posts to. @default "/__a3s-test/repairs" */
  endpoint?: string;
  /**
   * Origins accepted besides the dev server's own (a reverse proxy or tunnel in front of it).
   * @default []
   */
  allowedOrigins?: readonly string[];
  /**
   * Channel file of the session; normally handed over by `a3s-test dev` in
   * `$A3S_TEST_DEV_CHANNEL`. @default $A3S_TEST_DEV_CHANNEL, else `<root>/.a3s-test/dev/dev/channel.json`
   */
  channelFile?: string;
}

function checkEndpoint(endpoint: string): string {
  if (!endpoint.startsWith("/") || endpoint.startsWith("//") || /[?#\s]/.test(endpoint)) {
    throw new Error(`@a3s-lab/testkit/vite: endpoint must be an absolute URL path such as "${DEFAULT_REPAIR_ENDPOINT}", got "${endpoint}"`);
  }
  return endpoint;
}

/** The Vite plugin; add it to `plugins` in `vite.config.ts`. */
export function a3sTest(options: A3STestPluginOptions = {}): A3STestVitePlugin {
  const endpoint = checkEndpoint(options.endpoint ?? DEFAULT_REPAIR_ENDPOINT);
  const extra = options.allowedOrigins ?? [];
  return {
    name: "a3s-test",
    apply: "serve",
    configureServer(server) {
      const root = server.config.root;
      server.middlewares.use(
        createRepairMiddleware({
          endpoint,
          channelFile: () => options.channelFile ?? channelPath(root),
          allowedOrigins: () =>
            serverOrigins({
              resolvedUrls: server.resolvedUrls,
              configuredOrigin: server.config.server.origin,
              https: server.config.server.https !== undefined,
              address: server.httpServer?.address(),
              extra,
            }),
        }),
      );
    },
  };
}
