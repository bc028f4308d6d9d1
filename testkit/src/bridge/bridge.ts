//! The Page Context bridge: the object the driver calls. It wires the revision clock and signals,
//! the registry, projections and diff history, size fitting and cursors, UI understanding and the
//! repair queue. It offers no eval, cookies, storage, network, filesystem or shell access.
import { createAdviceBoard, readAdvice } from "../advice/advice";
import { TestKitError } from "../errors";
import { DEFAULT_LIMITS, MAX_LIMITS } from "../limits";
import { computeDiff, type ComputedDiff } from "../diff";
import { domPlatform, type Platform } from "../platform";
import type { Facts, Geometry, NodeRecord, SnapshotRequest, SnapshotResponse, TruncationReason } from "../protocol";
import { RedactionRules, sanitizeFacts } from "../privacy/redact";
import { endpointTransport, resolveSameOriginEndpoint } from "../repair/endpoint";
import { RepairNotifier } from "../repair/notify";
import { gestureCheck } from "../repair/gesture";
import { RepairQueue } from "../repair/queue";
import { createRepairStore } from "../repair/storage";
import type { RepairContext, RepairTarget } from "../repair/types";
import { RevisionClock } from "../revisions/clock";
import { ProjectionHistory } from "../revisions/history";
import { startSignals, type SignalSources } from "../revisions/signals";
import { ChangeTracker } from "../snapshot/changes";
import { safeCall } from "../snapshot/components";
import { acceptCursor, encodeCursor } from "../snapshot/cursor";
import { fitResponse, jsonBytes, type NodeSizes } from "../snapshot/fit";
import { geometryBytesAtMost } from "../snapshot/geometry";
import { NodeIdTable } from "../snapshot/ids";
import { pageRecordOf } from "../snapshot/page";
import { buildProjection, type Projection } from "../snapshot/projection";
import { OwnFactsMemo } from "../snapshot/ownFacts";
import { RecordCache } from "../snapshot/recordCache";
import { withGeometry } from "../snapshot/records";
import { baseDetailOf, normalizeRequest, projectionKeyOf, requestKeyOf, type NormalizedRequest } from "../snapshot/request";
import { validateTimeoutMs } from "../timeouts";
import { understand } from "../ui/understanding";
import { HANDSHAKE_PROTOCOL, PACKAGE_NAME, PAGE_CONTEXT_PROTOCOL, SDK_VERSION } from "../version";
import { CAPABILITIES, type PageContextBridge } from "./api";
import type { ResolvedOptions } from "./options";
import { nodeIdOf } from "./nodeIdOf";
import { captureRepairContext } from "./repairContext";
import { Registry } from "./registry";
import { scheduleWarmUp } from "./warmUp";

export { CAPABILITIES, type PageContextBridge, type WaitForDiffRequest } from "./api";

interface CachedPage {
  requestKey: string;
  revision: number;
  projection: Projection;
  candidates: number[];
  diff: ComputedDiff | undefined;
}

interface BridgeEnv {
  win: Window;
  options: ResolvedOptions;
  platform?: Platform;
  onDispose: () => void;
  /** Reuse unchanged node records between projections (default true; tests compare both). */
  reuseRecords?: boolean;
  /** The reason a production build keeps the runtime (reported in the handshake). */
  keptInProduction?: string;
}

let idCounter = 0;
function newId(): string {
  idCounter += 1;
  const rand = Math.random().toString(36).slice(2, 10);
  return `r-${Date.now().toString(36)}-${idCounter.toString(36)}-${rand}`;
}

/** Creates a live bridge for `win` (does not install it on the window). */
export function createBridge(env: BridgeEnv): PageContextBridge {
  const { win, options } = env;
  const doc = win.document;
  const platform = env.platform ?? domPlatform(win);
  const rules = new RedactionRules(options.redact, doc);
  const ids = new NodeIdTable();
  const history = new ProjectionHistory();
  const cache: CachedPage[] = [];
  const uiMemory = new Map<string, Map<string, string>>();
  let uiCounter = 0;
  let disposed = false;
  let signals: SignalSources | undefined;
  const clock = new RevisionClock(undefined, () => signals?.takeRecords());
  const changes = new ChangeTracker(rules.hasSelectors);
  signals = startSignals(win, (kind) => clock.signal(kind), (records) => changes.apply(records));
  const registry = new Registry(() => {
    // Owners, source maps and component roots feed records: nothing cached survives.
    changes.invalidateAll();
    clock.signal("registration");
  });
  // Record caches per projection kind; only when every DOM mutation is observed and the
  // redaction selectors depend on nothing but the element and its ancestors.
  const recordCaches = new Map<string, RecordCache>();
  const ownFacts = new OwnFactsMemo();
  let resetSeen = 0;
  const reusing = env.reuseRecords !== false && signals.observesMutations && rules.isLocal;
  const reuseFor = (req: NormalizedRequest) => {
    const detail = baseDetailOf(req.detail);
    if (!reusing || detail === "forensic") return undefined;
    // Apply mutations made since the clock flushed (e.g. by facts()) first: they may reset the
    // marks (an id change), which the check below must see in this projection, not the next.
    signals?.takeRecords();
    // After a reset no cached record is valid: drop them all at once (rather than a failed check
    // and a delete per element), as if the caches had just been created.
    if (changes.resetAt !== resetSeen) {
      resetSeen = changes.resetAt;
      recordCaches.clear();
    }
    const key = `${detail}:${req.limits.stringBytes}`;
    let cache = recordCaches.get(key);
    if (cache === undefined) cache = new RecordCache();
    recordCaches.delete(key);
    recordCaches.set(key, cache);
    for (const old of recordCaches.keys()) {
      if (recordCaches.size <= 4) break;
      recordCaches.delete(old);
    }
    return { cache, marks: changes, facts: ownFacts, stamp: changes.stamp() };
  };

  const live = () => {
    if (disposed) throw new TestKitError("disposed", "this bridge was disposed; call getPageContextBridge() again");
  };
  /** `f`, refused once the bridge is disposed: how each entry point that only delegates checks. */
  const guarded =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): R => {
      live();
      return f(...args);
    };

  const readFacts = (stringBytes: number): Facts => sanitizeFacts(safeCall(options.facts, {}, "facts()"), stringBytes);
  const readReady = (): boolean => (options.ready === undefined ? doc.readyState === "complete" : safeCall(options.ready, false, "ready()") === true);

  const project = (req: NormalizedRequest, revision: number): Projection => {
    const page = pageRecordOf({ pageId: options.pageId, win, platform, ready: readReady(), stringBytes: req.limits.stringBytes });
    const facts = readFacts(req.limits.stringBytes);
    const reuse = reuseFor(req);
    return buildProjection({
      revision,
      doc,
      platform,
      ids,
      rules,
      registry,
      detail: baseDetailOf(req.detail),
      scope: req.scope,
      stringBytes: req.limits.stringBytes,
      page,
      facts,
      onShadowRoot: (root) => signals?.observeShadowRoot(root),
      ...(reuse !== undefined ? { reuse } : {}),
    });
  };

  const computePage = (req: NormalizedRequest, revision: number, requestKey: string, recordHistory: boolean): CachedPage => {
    const hit = cache.find((c) => c.requestKey === requestKey && c.revision === revision);
    if (hit !== undefined && req.cursor !== undefined) return hit;
    const key = projectionKeyOf(req);
    // Read the baseline before recording the current projection (recording may evict it).
    const baseline = req.detail === "diff" && req.sinceRevision !== undefined ? history.get(key, req.sinceRevision) : undefined;
    const projection = project(req, revision);
    // Internal reads (repair context) must not evict the driver's diff baselines.
    if (recordHistory) history.record(key, projection.hashes);
    let candidates: number[];
    let diff: ComputedDiff | undefined;
    if (req.detail === "diff" && req.sinceRevision !== undefined) {
      const metadataBudget = req.limits.responseBytes - jsonBytes(projection.page) - 1024;
      diff = computeDiff(req.sinceRevision, baseline, projection.hashes, metadataBudget);
      if (diff.record.status === "complete") {
        const changed = new Set(diff.changed);
        candidates = [];
        projection.nodes.forEach((n, i) => {
          if (changed.has(n.id)) candidates.push(i);
        });
      } else {
        candidates = projection.nodes.map((_, i) => i);
      }
    } else {
      candidates = projection.nodes.map((_, i) => i);
    }
    const page: CachedPage = { requestKey, revision, projection, candidates, diff };
    if (recordHistory) {
      // Only pages of the current revision can serve a cursor (cursors of older revisions are
      // rejected), and a newer page of the same request replaces the older one: keeping either
      // would only keep thousands of walk entries alive for the garbage collector to trace.
      for (let i = cache.length - 1; i >= 0; i--) {
        const c = cache[i] as CachedPage;
        if (c.revision < revision || c.requestKey === requestKey) cache.splice(i, 1);
      }
      cache.unshift(page);
      if (cache.length > 4) cache.length = 4;
    }
    return page;
  };

  const snapshot = (request?: SnapshotRequest, recordHistory = true): SnapshotResponse => {
    live();
    const req = normalizeRequest(request, options.limits);
    const revision = clock.flush();
    if (req.sinceRevision !== undefined && req.sinceRevision > revision) {
      throw new TestKitError("invalid_request", `sinceRevision ${req.sinceRevision} is ahead of the current revision ${revision}`);
    }
    const requestKey = requestKeyOf(req);
    const offset = req.cursor !== undefined ? acceptCursor(req.cursor, revision, requestKey).offset : 0;
    const computed = computePage(req, revision, requestKey, recordHistory);
    const { projection, candidates } = computed;
    if (offset > candidates.length) throw new TestKitError("invalid_cursor", "cursor points past the end of this projection");
    const slice = candidates.slice(offset, offset + req.limits.nodes);
    const reasons: TruncationReason[] = [];
    if (offset + slice.length < candidates.length || projection.hashes.overflow) reasons.push("node_limit");
    const frame = {
      width: projection.page.viewport.width,
      height: projection.page.viewport.height,
      scrollX: projection.page.scroll.x,
      scrollY: projection.page.scroll.y,
    };
    const nodes: NodeRecord[] = slice.map((i) => withGeometry(projection.nodes[i] as NodeRecord, projection.entries[i] as NonNullable<(typeof projection.entries)[number]>, frame, platform, true));
    // Size of a node with geometry = its semantic JSON + `,"geometry":` (12 bytes) + the geometry.
    const sizeWith = (geometryBytes: (g: Geometry) => number) =>
      nodes.map((n, k) => (projection.nodeBytes[slice[k] as number] ?? 0) + (n.geometry !== undefined ? 12 + geometryBytes(n.geometry) : 0));
    const nodeBytes: NodeSizes = { atMost: sizeWith(geometryBytesAtMost), exact: () => sizeWith(jsonBytes) };
    const draft: SnapshotResponse = {
      protocol: PAGE_CONTEXT_PROTOCOL,
      sdkVersion: SDK_VERSION,
      revision,
      detail: req.detail,
      page: projection.page,
      components: projection.components,
      nodes,
      facts: projection.facts,
      removedNodeIds: computed.diff?.removed ?? [],
      truncated: reasons.length > 0,
      truncatedReasons: reasons,
      nextCursor: null,
      limits: req.limits,
    };
    if (computed.diff !== undefined) draft.delta = computed.diff.record;
    if (req.ui && options.uiUnderstanding) {
      uiCounter += 1;
      const ui = understand({
        entries: slice.map((i) => projection.entries[i] as NonNullable<(typeof projection.entries)[number]>),
        allowedIds: new Set(nodes.map((n) => n.id)),
        idOf: (el) => ids.peek(el),
        platform,
        revision,
        viewport: projection.page.viewport,
        scope: req.scope,
        limits: { nodes: req.limits.uiNodes, timeMs: req.limits.uiTimeMs },
        observationId: `ui-${revision}-${uiCounter}`,
        memory: uiMemory,
      });
      if (ui !== undefined) draft.ui = ui;
    }
    const { response } = fitResponse(
      draft,
      req.limits.responseBytes,
      (kept) => (offset + kept < candidates.length ? encodeCursor({ revision, requestKey, offset: offset + kept }) : null),
      nodeBytes,
    );
    return response;
  };

  const captureContext = (target: RepairTarget): RepairContext =>
    captureRepairContext(target, {
      revision: () => clock.flush(),
      page: () => pageRecordOf({ pageId: options.pageId, win, platform, ready: readReady(), stringBytes: options.limits.stringBytes }),
      facts: () => readFacts(options.limits.stringBytes),
      read: (request) => snapshot(request, false),
      element: (nodeId) => ids.resolve(nodeId),
      idOf: (el) => ids.idOf(el),
      readable: (el) => el !== doc.body && !rules.covers(el),
    });

  const repairNotifier = new RepairNotifier();
  const repairStore = createRepairStore(options.repairStorage, win, options.pageId);
  const repairs = new RepairQueue({
    store: repairStore,
    onChange: (kind) => repairNotifier.changed(kind),
    isHumanGesture: gestureCheck(win),
    ...(options.repairEndpoint !== undefined && typeof win.fetch === "function"
      ? { transport: endpointTransport(resolveSameOriginEndpoint(options.repairEndpoint, win.location.href), win.fetch.bind(win)) }
      : {}),
    captureContext,
    now: () => new Date(),
    newId,
  });

  // Compiled code and filled record caches before the first observation (see warmUp.ts).
  const cancelWarmUp = scheduleWarmUp(win, () => {
    if (!disposed) snapshot({ ui: false }, false);
  });

  const advice = createAdviceBoard();

  const bridge: PageContextBridge = {
    handshake: () => ({
      protocol: HANDSHAKE_PROTOCOL,
      packageName: PACKAGE_NAME,
      sdkVersion: SDK_VERSION,
      pageContextProtocol: PAGE_CONTEXT_PROTOCOL,
      capabilities: options.uiUnderstanding ? [...CAPABILITIES] : CAPABILITIES.filter((c) => c !== "ui-understanding"),
      limits: { defaults: { ...DEFAULT_LIMITS }, max: { ...MAX_LIMITS }, installed: { ...options.limits } },
      repairStorage: repairStore.kind ?? options.repairStorage,
      redact: [...options.redact],
      ...(env.keptInProduction !== undefined ? { keptInProduction: env.keptInProduction } : {}),
    }),
    probe: () => ({
      protocol: PAGE_CONTEXT_PROTOCOL,
      sdkVersion: SDK_VERSION,
      revision: disposed ? clock.revision : clock.flush(),
      pageId: options.pageId,
      url: pageRecordOf({ pageId: options.pageId, win, platform, ready: false, stringBytes: options.limits.stringBytes }).url,
      ready: disposed ? false : readReady(),
      disposed,
    }),
    snapshot: (request) => snapshot(request),
    resolve: (nodeId) => {
      live();
      if (typeof nodeId !== "string") throw new TestKitError("invalid_request", "nodeId must be a string");
      const el = ids.resolve(nodeId);
      return el !== null && el.isConnected ? el : null;
    },
    nodeIdOf: (el) => {
      live();
      return nodeIdOf(el, { doc, ids, rules, platform });
    },
    waitForChange: (revision, timeoutMs) => {
      live();
      validateTimeoutMs(timeoutMs);
      if (typeof revision !== "number" || !Number.isInteger(revision) || revision < 0) {
        throw new TestKitError("invalid_request", "revision must be a non-negative integer");
      }
      return clock.waitForChange(revision, timeoutMs);
    },
    waitForDiff: async (request) => {
      live();
      if (typeof request !== "object" || request === null) throw new TestKitError("invalid_request", "request must be an object");
      const { timeoutMs, sinceRevision, ...rest } = request;
      validateTimeoutMs(timeoutMs);
      if (typeof sinceRevision !== "number" || !Number.isInteger(sinceRevision) || sinceRevision < 0) {
        throw new TestKitError("invalid_request", "sinceRevision must be a non-negative integer");
      }
      if (sinceRevision > clock.flush()) {
        throw new TestKitError("invalid_request", `sinceRevision ${sinceRevision} is ahead of the current revision ${clock.revision}`);
      }
      // Validate the rest before waiting so a bad request fails fast.
      normalizeRequest({ ...rest, detail: "diff", sinceRevision }, options.limits);
      await clock.waitForChange(sinceRevision, timeoutMs);
      return snapshot({ ...rest, detail: "diff", sinceRevision });
    },
    subscribe: (listener) => {
      live();
      if (typeof listener !== "function") throw new TestKitError("invalid_request", "listener must be a function");
      return clock.subscribe(listener);
    },
    dispose: () => {
      if (disposed) return;
      disposed = true;
      cancelWarmUp();
      signals?.stop();
      signals = undefined;
      clock.dispose();
      repairNotifier.stop();
      cache.length = 0;
      recordCaches.clear();
      env.onDispose();
    },
    registerBoundary: guarded((r) => registry.registerBoundary(r)),
    registerSource: guarded((r) => registry.registerSource(r)),
    registerSourceMap: guarded((r) => registry.registerSourceMap(r)),
    submitRepair: guarded((draft, sendOptions) => repairs.submit(draft, sendOptions)),
    peekRepairBatch: guarded((o) => repairs.peekBatch(o)),
    takeRepairBatch: guarded((o) => repairs.takeBatch(o)),
    listRepairs: guarded(() => repairs.list()),
    applyRepairEvent: guarded((e) => repairs.applyEvent(e)),
    submitRepairAction: guarded((a, sendOptions) => repairs.submitAction(a, sendOptions)),
    peekRepairActions: guarded((o) => repairs.peekActions(o)),
    takeRepairActions: guarded((o) => repairs.takeActions(o)),
    listRepairActions: guarded(() => repairs.listActions()),
    subscribeRepairs: (listener) => {
      live();
      if (typeof listener !== "function") throw new TestKitError("invalid_request", "listener must be a function");
      return repairNotifier.subscribe(listener);
    },
    showAdvice: guarded((input) => {
      const read = readAdvice(input);
      const revision = clock.flush();
      return { shown: advice.show(read, revision), revision };
    }),
    listAdvice: guarded(() => advice.current(clock.flush())),
    subscribeAdvice: (listener) => {
      live();
      if (typeof listener !== "function") throw new TestKitError("invalid_request", "listener must be a function");
      return advice.subscribe(listener);
    },
  };
  return bridge;
}
