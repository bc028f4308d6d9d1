//! The wire shapes of the Page Context protocol: requests, snapshot responses, node and component
//! records, locators, geometry, diffs and source mapping. Field names are the compatibility
//! contract with the A3S Test driver; everything here is plain JSON-compatible data.

/** A JSON value as serialized by the runtime. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Application-provided facts (sanitized before serialization). */
export type Facts = { [key: string]: JsonValue };

/** How much a snapshot reads. `diff` returns only what changed since `sinceRevision`. */
export type Detail = "summary" | "scoped" | "diff" | "forensic";

/** Which part of the page a snapshot covers. */
export type Scope =
  | { kind: "page" }
  | { kind: "node"; nodeId: string }
  | { kind: "component"; componentId: string }
  | { kind: "region"; space: "viewport" | "document"; x: number; y: number; width: number; height: number };

/** Output bounds. A request may lower each one below the installed value, never raise it. */
export interface Limits {
  /** Most node records in one response. @default 500 (max 5,000) */
  nodes: number;
  /** Most UTF-8 bytes of any one string. @default 4096 (max 16,384) */
  stringBytes: number;
  /** Most UTF-8 bytes of the JSON-encoded response. @default 1,048,576 (max 8,388,608) */
  responseBytes: number;
  /** Most layout nodes in the UI-understanding record. @default 200 (max 1,000) */
  uiNodes: number;
  /** Most milliseconds spent on UI understanding. @default 32 (max 100) */
  uiTimeMs: number;
}

/** A snapshot request. */
export interface SnapshotRequest {
  /** What to read. @default "summary" */
  detail?: Detail;
  /** What part of the page. @default { kind: "page" } */
  scope?: Scope;
  /** Baseline revision; only for `detail: "diff"`. */
  sinceRevision?: number;
  /** `nextCursor` of a previous truncated response to the exact same request and revision. */
  cursor?: string;
  /**
   * Include the UI-understanding record (when the installation has `uiUnderstanding`). Pass
   * `false` when a request does not need UI evidence. @default true
   */
  ui?: boolean;
  /** Lower limits for this request. */
  limits?: Partial<Limits>;
}

/** An axis-aligned rectangle in CSS px (or 0..1 units for `normalized`). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Layout and visual viewport, in layout-viewport CSS px. */
export interface Viewport {
  width: number;
  height: number;
  /** Device pixel ratio, reported separately and never multiplied into CSS px. */
  dpr: number;
  /** The visual viewport (pinch zoom), when the browser exposes one. */
  visual?: { x: number; y: number; width: number; height: number; scale: number };
}

/** Page-level record. */
export interface PageRecord {
  id: string;
  url: string;
  route: string;
  title: string;
  ready: boolean;
  viewport: Viewport;
  document: { width: number; height: number };
  scroll: { x: number; y: number };
  language: string;
  theme: "light" | "dark";
}

/** A source location; lines and columns are 1-based. */
export interface SourceSpan {
  file: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}

/** One source candidate for a node. */
export interface SourceCandidate {
  span: SourceSpan;
  generatedSpan?: SourceSpan;
  /** 0..1 */
  confidence: number;
  origin: "framework_adapter" | "source_map" | "boundary_hint" | "generated";
  relation: "exact" | "ancestor";
  registrationId: string;
}

/** Source-mapping record attached to a node (evidence only, grants no file authority). */
export interface SourceMapping {
  protocol: "a3s.test.source-mapping/1";
  candidates: SourceCandidate[];
}

/** A way to find a node again, in preference order. */
export type Locator =
  | { kind: "role"; role: string; name: string }
  | { kind: "label"; value: string }
  | { kind: "testId"; value: string }
  | { kind: "placeholder"; value: string }
  | { kind: "text"; value: string }
  | { kind: "css"; value: string; shadowHosts?: string[] };

/** Geometry evidence of a node. */
export interface Geometry {
  viewport: Rect;
  document: Rect;
  /** Viewport rect divided by the layout viewport size; may leave 0..1. */
  normalized: Rect;
  visibleRatio: number;
  occluded: boolean;
  position: "static" | "relative" | "absolute" | "fixed" | "sticky";
  transformed: boolean;
  scrollContainerNodeId?: string;
}

/** Interaction state of a node; absent flags are false. */
export interface NodeState {
  visible: boolean;
  disabled?: true;
  checked?: boolean | "mixed";
  selected?: true;
  expanded?: boolean;
  pressed?: boolean | "mixed";
  focused?: true;
  required?: true;
  invalid?: true;
  readonly?: true;
  /** Current value of a non-secret form control. */
  value?: string;
  /** Set when a value exists but is secret (password, hidden, one-time code…). */
  valueRedacted?: true;
  level?: number;
}

/** One node of a snapshot. */
export interface NodeRecord {
  id: string;
  parentId?: string;
  componentId?: string;
  tag: string;
  role?: string;
  name?: string;
  text?: string;
  testId?: string;
  state: NodeState;
  locators: Locator[];
  geometry?: Geometry;
  sourceMapping?: SourceMapping;
  /** Set on a node that lives in an open shadow root. */
  inShadowRoot?: true;
  /** Set on the root of a redacted region; its content is never read. */
  redacted?: true;
  /** Forensic only. */
  classes?: string[];
  /** Forensic only: safe attributes. */
  attributes?: { [name: string]: string };
  /** Forensic only: a few computed styles. */
  styles?: { [name: string]: string };
}

/** One registered component boundary. */
export interface ComponentRecord {
  id: string;
  name: string;
  parentId?: string;
  source?: SourceSpan;
  ready: boolean;
  facts: Facts;
  /** Every client rect of every root (viewport CSS px), never a union. */
  boxes: Rect[];
}

/** What a diff invalidates. */
export interface Invalidated {
  all: boolean;
  page: boolean;
  facts: boolean;
  ui: boolean;
  nodeIds: string[];
  componentIds: string[];
}

/** `a3s.test.page-context-diff/1` */
export interface DiffRecord {
  protocol: "a3s.test.page-context-diff/1";
  fromRevision: number;
  toRevision: number;
  status: "complete" | "reset_required";
  invalidated: Invalidated;
}

/** Why a response was truncated. */
export type TruncationReason = "ui" | "nodes" | "node_limit" | "components" | "facts";

/** `a3s.test.page-context/1` snapshot response. */
export interface SnapshotResponse {
  protocol: "a3s.test.page-context/1";
  sdkVersion: string;
  revision: number;
  detail: Detail;
  page: PageRecord;
  components: ComponentRecord[];
  nodes: NodeRecord[];
  facts: Facts;
  ui?: UiUnderstanding;
  delta?: DiffRecord;
  removedNodeIds: string[];
  truncated: boolean;
  truncatedReasons: TruncationReason[];
  nextCursor: string | null;
  /** The limits in force for this response (request values lowered to the installed ones). */
  limits: Limits;
}

/** A box-model edge set in CSS px. */
export interface Edges {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** One layout node of UI understanding. */
export interface UiLayoutNode {
  nodeId: string;
  display: string;
  position: string;
  rect: Rect;
  margin: Edges;
  border: Edges;
  padding: Edges;
  overflow: { x: string; y: string };
  /** `box-sizing`: whether `rect` includes `padding` and `border` (kept apart from them). */
  boxSizing: string;
  /** `writing-mode`: which way block and inline run, for reading the edges. */
  writingMode: string;
  /** `direction`: `ltr` or `rtl`. */
  direction: string;
  flex?: { direction: string; wrap: string; justify: string; align: string; gap: string };
  grid?: { columns: string; rows: string; gap: string };
}

/** One layout edge; both ends are in `layout.nodes`. */
export interface UiLayoutEdge {
  from: string;
  to: string;
  kind: "contains" | "scroll_container" | "offset_parent";
}

/** A frequency-ranked style token. */
export interface StyleToken {
  value: string;
  count: number;
}

/** `a3s.test.ui-understanding/1` */
export interface UiUnderstanding {
  protocol: "a3s.test.ui-understanding/1";
  observationId: string;
  pageRevision: number;
  viewport: Viewport;
  scope: Scope;
  budget: {
    limits: { nodes: number; timeMs: number };
    used: { nodes: number; timeMs: number };
    truncated: boolean;
    reasons: Array<"node_limit" | "time_limit" | "overlap_limit">;
  };
  /** Cross-origin style sheets are never read, only counted in `inaccessibleStyleSheets`. */
  evidence: { source: "computed_style"; nodeCount: number; inaccessibleStyleSheets: number; untrusted: true };
  style: {
    color: StyleToken[];
    spacing: StyleToken[];
    radius: StyleToken[];
    shadow: StyleToken[];
    typography: StyleToken[];
  };
  layout: { nodes: UiLayoutNode[]; edges: UiLayoutEdge[] };
  components: Array<{ id: string; signature: string; nodeIds: string[] }>;
  stateDiffs: Array<{ nodeId: string; field: string; from: string; to: string }>;
  /** Pairs of record nodes whose boxes overlap though neither contains the other. */
  overlaps: UiOverlap[];
  /** Record nodes an ancestor's non-visible overflow cuts. */
  clips: UiClip[];
  motion: { runningAnimations: number; reducedMotion: boolean; animations: UiAnimation[] };
}

/**
 * Two record nodes whose border boxes intersect while neither is the other's DOM ancestor:
 * something is drawn over something else. `above` is the one the browser's hit test finds at the
 * centre of the shared area (absent when it finds neither).
 */
export interface UiOverlap {
  a: string;
  b: string;
  /** The shared area in viewport CSS px. */
  area: Rect;
  above?: string;
}

/** A record node cut by the overflow (hidden, clip, auto or scroll) of an ancestor in the record. */
export interface UiClip {
  nodeId: string;
  by: string;
  /** Share of the node's box inside the ancestor's padding box, 0..1 (below 1 by definition). */
  visibleRatio: number;
}

/** A running or paused animation or transition whose target is a record node. */
export interface UiAnimation {
  nodeId: string;
  kind: "animation" | "transition" | "script";
  /** The CSS animation name, transitioned property, or the script animation's id (bounded). */
  name: string;
  state: "running" | "paused";
}

/** `a3s.test.testkit-handshake/1` */
export interface Handshake {
  protocol: "a3s.test.testkit-handshake/1";
  packageName: string;
  sdkVersion: string;
  pageContextProtocol: "a3s.test.page-context/1";
  capabilities: string[];
  limits: { defaults: Limits; max: Limits; installed: Limits };
  /**
   * Where the repair queue persists (`memory` when the requested web storage was unavailable),
   * so the Review Overlay keeps drafts alongside it. Optional: older runtimes do not send it.
   */
  repairStorage?: "memory" | "session" | "local";
  /**
   * The `redact` selectors this page declared: A3S Test keeps what they match out of every
   * observation, message, evidence file and report it writes. Optional: older runtimes omit it.
   */
  redact?: string[];
  /**
   * Present only in a production build that keeps the runtime: the reason the app stated
   * (`keepInProduction.reason`).
   */
  keptInProduction?: string;
}

/** Cheap liveness record. */
export interface Probe {
  protocol: "a3s.test.page-context/1";
  sdkVersion: string;
  revision: number;
  pageId: string;
  url: string;
  ready: boolean;
  disposed: boolean;
}

/** Why a revision advanced. */
export type SignalKind =
  | "mutation"
  | "resize"
  | "route"
  | "viewport"
  | "scroll"
  | "input"
  | "focus"
  | "registration";

/** Delivered to `subscribe` listeners and returned by `waitForChange`. */
export interface RevisionChange {
  revision: number;
  changed: boolean;
  reasons: SignalKind[];
}
