//! A projection: the complete, untruncated semantic view of one request's scope at one revision —
//! page, facts, components and node records with their semantic hashes. Snapshots page through
//! it; diffs compare two of them. Geometry is not part of it (it is attached per page of nodes).
import { TestKitError } from "../errors";
import type { ComponentRecord, Facts, NodeRecord, PageRecord, Scope } from "../protocol";
import type { Platform } from "../platform";
import type { RedactionRules } from "../privacy/redact";
import type { Registry } from "../bridge/registry";
import type { SourceOwner } from "../source/mapping";
import { hash53 } from "../util/hash";
import { utf8ByteLength } from "../util/utf8";
import { componentRecordOf, componentRootsOf, enclosingComponentOf, parentAcrossShadow } from "./components";
import { overlaps } from "./geometry";
import type { NodeIdTable } from "./ids";
import type { ChangeMarks } from "./changes";
import { deepActiveElement, ownerHits, semanticRecord } from "./records";
import type { OwnFactsMemo } from "./ownFacts";
import type { EntryContext, RecordCache } from "./recordCache";
import { CssPathCache } from "./locators";
import { LabelIndex } from "./describe";
import { entryRect, expandRoots, walk, type WalkEntry } from "./walk";

/** Most elements one projection holds; a diff over more is `reset_required`. */
export const MAX_PROJECTION_NODES = 10_000;

/** Hash summary of a projection kept in the diff history. */
export interface ProjectionHashes {
  revision: number;
  page: number;
  facts: number;
  nodes: Map<string, number>;
  components: Map<string, number>;
  /** True when the scope held more than {@link MAX_PROJECTION_NODES} elements. */
  overflow: boolean;
}

/** A complete projection. */
export interface Projection {
  revision: number;
  page: PageRecord;
  facts: Facts;
  components: ComponentRecord[];
  nodes: NodeRecord[];
  entries: WalkEntry[];
  /** UTF-8 size of each node's JSON without geometry (lets size fitting skip re-encoding). */
  nodeBytes: number[];
  hashes: ProjectionHashes;
}

/** Everything a projection reads. */
export interface ProjectionInput {
  revision: number;
  doc: Document;
  platform: Platform;
  ids: NodeIdTable;
  rules: RedactionRules;
  registry: Registry;
  detail: "summary" | "scoped" | "forensic";
  scope: Scope;
  stringBytes: number;
  page: PageRecord;
  facts: Facts;
  onShadowRoot?: (root: ShadowRoot) => void;
  /**
   * Records of earlier projections to reuse where still valid: the cache, the change marks, the
   * memo of elements' own facts, and this projection's stamp (taken after the last mutation
   * records were applied).
   */
  reuse?: { cache: RecordCache; marks: ChangeMarks; facts: OwnFactsMemo; stamp: number };
}

function ownersAbove(start: Element, owners: Map<Element, SourceOwner[]>): SourceOwner[][] {
  const out: SourceOwner[][] = [];
  for (let cur = parentAcrossShadow(start); cur !== null; cur = parentAcrossShadow(cur)) {
    const own = owners.get(cur);
    if (own !== undefined) out.push(own);
    if (out.length >= 8) break;
  }
  return out;
}


/** Builds the projection of a scope. */
export function buildProjection(input: ProjectionInput): Projection {
  const { doc, registry, scope } = input;
  const boundaries = registry.boundaries();
  const componentRoots = componentRootsOf(boundaries);
  let starts: Element[];
  let startComponentId: string | undefined;
  if (scope.kind === "node") {
    const el = input.ids.resolve(scope.nodeId);
    if (el === null || !el.isConnected) throw new TestKitError("unknown_node", `node "${scope.nodeId}" is not on the page (ids are only valid while their element lives)`);
    starts = [el];
    startComponentId = enclosingComponentOf(el, componentRoots, false);
  } else if (scope.kind === "component") {
    const b = registry.boundary(scope.componentId);
    if (b === undefined) throw new TestKitError("unknown_component", `component "${scope.componentId}" is not registered`);
    starts = expandRoots(b.roots().filter((r) => r.isConnected));
    startComponentId = enclosingComponentOf(starts[0] ?? doc.documentElement, componentRoots, false);
  } else {
    starts = doc.body !== null ? Array.from(doc.body.children) : [];
  }
  const { entries: walked, overflow } = walk(starts, {
    platform: input.platform,
    ids: input.ids,
    rules: input.rules,
    mode: input.detail === "summary" ? "summary" : "all",
    componentRoots,
    ...(startComponentId !== undefined ? { startComponentId } : {}),
    ...(input.onShadowRoot !== undefined ? { onShadowRoot: input.onShadowRoot } : {}),
    maxEntries: MAX_PROJECTION_NODES,
    ...(input.reuse !== undefined && input.detail !== "forensic" ? { memo: { marks: input.reuse.marks, facts: input.reuse.facts, stamp: input.reuse.stamp } } : {}),
  });
  const entries = scope.kind === "region" ? filterRegion(walked, scope, input.page, input.platform) : walked;
  const owners = registry.ownersByElement();
  const first = starts[0];
  const ctx = {
    rules: input.rules,
    stringBytes: input.stringBytes,
    forensic: input.detail === "forensic",
    focused: deepActiveElement(doc),
    owners,
    outerOwners: first !== undefined && scope.kind !== "page" && scope.kind !== "region" ? ownersAbove(first, owners) : [],
    lookupMap: (file: string) => registry.lookupMap(file),
    cssCache: new CssPathCache(),
    labels: new LabelIndex(),
  };
  const nodes: NodeRecord[] = new Array<NodeRecord>(entries.length);
  const nodeBytes: number[] = new Array<number>(entries.length);
  const nodeHashes = new Map<string, number>();
  // Forensic records carry computed styles, which no mutation reports: never reused.
  const reuse = input.detail === "forensic" ? undefined : input.reuse;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as WalkEntry;
    const hits = ownerHits(entries, i, ctx);
    const at: EntryContext = { parentId: entries[entry.parentIndex]?.id, focused: ctx.focused === entry.el, hits };
    const cached = reuse?.cache.reuse(entry, at, reuse.marks);
    if (cached !== undefined) {
      nodes[i] = cached.record;
      nodeBytes[i] = cached.bytes;
      nodeHashes.set(cached.record.id, cached.hash);
      continue;
    }
    const seeded = reuse?.cache.seedPath(entry, ctx.cssCache, reuse.marks.resetAt) === true;
    const record = semanticRecord(entries, i, ctx, hits);
    if (reuse !== undefined && !seeded) reuse.cache.rememberPath(entry, ctx.cssCache, reuse.stamp);
    // The semantic hash covers everything but geometry (which is attached per page of nodes).
    const json = JSON.stringify(record);
    const built = { record, bytes: utf8ByteLength(json), hash: hash53(json) };
    reuse?.cache.store(entry, at, reuse.stamp, built);
    nodes[i] = record;
    nodeBytes[i] = built.bytes;
    nodeHashes.set(record.id, built.hash);
  }
  const used = new Set<string>();
  if (scope.kind !== "page") {
    for (const n of nodes) if (n.componentId !== undefined) used.add(n.componentId);
    if (scope.kind === "component") used.add(scope.componentId);
  }
  const components: ComponentRecord[] = [];
  const componentHashes = new Map<string, number>();
  for (const b of boundaries) {
    if (!b.roots().some((r) => r.isConnected)) continue;
    const record = componentRecordOf(b, componentRoots, input.platform, input.stringBytes);
    components.push(record);
  }
  const byId = new Map(components.map((c) => [c.id, c]));
  // Keep ancestors of the used components so parentId never points outside the list.
  if (scope.kind !== "page") {
    for (const id of Array.from(used)) {
      let parent = byId.get(id)?.parentId;
      while (parent !== undefined && !used.has(parent)) {
        used.add(parent);
        parent = byId.get(parent)?.parentId;
      }
    }
  }
  const kept = scope.kind === "page" ? components : components.filter((c) => used.has(c.id));
  for (const c of kept) {
    const { boxes: _boxes, ...semantic } = c;
    componentHashes.set(c.id, hash53(JSON.stringify(semantic)));
  }
  return {
    revision: input.revision,
    page: input.page,
    facts: input.facts,
    components: kept,
    nodes,
    entries,
    nodeBytes,
    hashes: {
      revision: input.revision,
      page: hash53(JSON.stringify(input.page)),
      facts: hash53(JSON.stringify(input.facts)),
      nodes: nodeHashes,
      components: componentHashes,
      overflow,
    },
  };
}

function filterRegion(entries: WalkEntry[], scope: Extract<Scope, { kind: "region" }>, page: PageRecord, platform: Platform): WalkEntry[] {
  const region =
    scope.space === "viewport"
      ? { x: scope.x, y: scope.y, width: scope.width, height: scope.height }
      : { x: scope.x - page.scroll.x, y: scope.y - page.scroll.y, width: scope.width, height: scope.height };
  const keepIndex = new Map<number, number>();
  const out: WalkEntry[] = [];
  entries.forEach((e, i) => {
    if (!overlaps(entryRect(e, platform), region)) return;
    // Re-parent onto the nearest kept ancestor so parentIndex stays inside the list.
    let p = e.parentIndex;
    while (p >= 0 && !keepIndex.has(p)) p = entries[p]?.parentIndex ?? -1;
    keepIndex.set(i, out.length);
    out.push({ ...e, parentIndex: p >= 0 ? (keepIndex.get(p) ?? -1) : -1, order: out.length });
  });
  return out;
}
