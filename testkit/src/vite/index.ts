//! `@a3s-lab/testkit/vite`: the dev-server side of the review loop. A Vite plugin that takes the
//! Review Overlay's sent findings and reviewer actions at a same-origin endpoint and forwards
//! them to the running `a3s-test dev` session over loopback. It never sees workspace paths,
//! shell access or credentials beyond the session's own channel token.
export { a3sTest, DEFAULT_REPAIR_ENDPOINT, type A3STestPluginOptions, type A3STestVitePlugin, type DevServerLike } from "./plugin";
export { createRepairMiddleware, CANDIDATES_SUFFIX, MAX_PAGE_URL_BYTES, type RepairMiddleware, type RepairMiddlewareOptions } from "./middleware";
export { channelPath, DEV_CHANNEL_ENV, DEV_CHANNEL_PROTOCOL, DEFAULT_DEV_SESSION } from "./channel";
export { VITE_ENDPOINT_CODES, type ViteEndpointCode } from "./codes";
export { FORWARD_TIMEOUT_MS } from "./forward";
export { MAX_BODY_BYTES } from "./body";
