//! `a3sTest()`: the Vite plugin that serves the Test Kit's `repairEndpoint` inside the dev
//! server and forwards what arrives to the running `a3s-test dev` session. Dev server only
//! (`apply: "serve"`): a production build gets nothing from it.
import type { Plugin, ViteDevServer } from "vite";
import { channelPath } from "./channel";
import { createRepairMiddleware } from "./middleware";
import { serverOrigins } from "./origins";

/** The default endpoint path; the page's `repairEndpoint` must be the same. */
export const DEFAULT_REPAIR_ENDPOINT = "/__a3s-test/repairs";

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
export function a3sTest(options: A3STestPluginOptions = {}): Plugin {
  const endpoint = checkEndpoint(options.endpoint ?? DEFAULT_REPAIR_ENDPOINT);
  const extra = options.allowedOrigins ?? [];
  return {
    name: "a3s-test",
    apply: "serve",
    configureServer(server: ViteDevServer) {
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
