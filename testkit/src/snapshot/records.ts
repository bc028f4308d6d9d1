//! Node records: turns walk entries into privacy-filtered semantic records (what the diff hash
//! covers) and attaches geometry (evidence, kept out of the hash) when a page of nodes is sent.
import type { NodeRecord } from "../protocol";
import type { Platform } from "../platform";
import { isSecretKey, REDACTED, sanitizeUrl, scrubSecrets, type RedactionRules } from "../privacy/redact";
import { candidatesFor, sourceMappingOf, type OwnerHit, type SourceMapLookup, type SourceOwner } from "../source/mapping";
import { truncateUtf8 } from "../util/utf8";
import { LABEL_SOURCES } from "../a11y/name";
import { accessibleNameOf, stateOf, type LabelIndex } from "./describe";
import { geometryOf, type ViewportFrame } from "./geometry";
import { locatorsOf, type CssPathCache } from "./locators";
import { entryRect, type WalkEntry } from "./walk";

/** Shared inputs for building the records of one snapshot. */
export interface RecordContext {
  rules: RedactionRules;
  stringBytes: number;
  forensic: boolean;
  focused: Element | null;
  owners: Map<Element, SourceOwner[]>;
  /** Owners above the walk's starting element(s), nearest first (for node/component scopes). */
  outerOwners: SourceOwner[][];
  lookupMap: SourceMapLookup;
  cssCache: CssPathCache;
  labels: LabelIndex;
}

const SAFE_ATTRIBUTES = new Set([
  "id", "name", "type", "href", "src", "alt", "title", "role", "for", "tabindex", "placeholder",
  "disabled", "checked", "selected", "hidden", "lang", "dir", "target", "rel", "action", "method",
  "autocomplete", "maxlength", "minlength", "min", "max", "step", "multiple", "required", "readonly",
  "open", "colspan", "rowspan", "scope", "inputmode", "draggable", "contenteditable", "slot",
]);
const URL_ATTRIBUTES = new Set(["href", "src", "action"]);
const FORENSIC_STYLES = [
  "display", "position", "visibility", "opacity", "z-index", "color", "background-color",
  "font-size", "font-weight", "overflow-x", "overflow-y", "pointer-events", "cursor",
];

function safeAttributes(el: Element, stringBytes: number): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  for (const attr of Array.from(el.attributes)) {
    const name = attr.name;
    const allowed = SAFE_ATTRIBUTES.has(name) || name.startsWith("aria-") || (name.startsWith("data-") && name !== "data-testid");
    if (!allowed || isSecretKey(name.replace(/^(aria|data)-/, ""))) continue;
    const raw = URL_ATTRIBUTES.has(name) ? sanitizeUrl(resolveUrl(el, attr.value)) : scrubSecrets(attr.value);
    out[name] = truncateUtf8(raw, stringBytes);
  }
  return out;
}

function resolveUrl(el: Element, value: string): string {
  try {
    return new URL(value, el.ownerDocument.baseURI).href;
  } catch {
    return value;
  }
}

/** The hits of a node no source owner reaches (most nodes of most pages): one shared array. */
const NO_HITS: readonly OwnerHit[] = Object.freeze([]);

/** Source owners met from `entries[index]` up through its included ancestors, then above the walk. */
export function ownerHits(entries: readonly WalkEntry[], index: number, ctx: Pick<RecordContext, "owners" | "outerOwners">): readonly OwnerHit[] {
  // Allocated on the first hit: most nodes have none, and this runs for every node of a projection.
  let hits: OwnerHit[] | undefined;
  let level = 0;
  for (let i = index; i >= 0; i = entries[i]?.parentIndex ?? -1) {
    const entry = entries[i];
    if (entry === undefined) break;
    const own = ctx.owners.get(entry.el);
    if (own !== undefined) for (const owner of own) (hits ??= []).push({ owner, level });
    if (hits !== undefined && hits.length >= 8) return hits;
    level++;
    if (entry.parentIndex < 0) break;
  }
  for (const own of ctx.outerOwners) {
    for (const owner of own) (hits ??= []).push({ owner, level });
    if (hits !== undefined && hits.length >= 8) break;
    level++;
  }
  return hits ?? NO_HITS;
}

/**
 * Builds the semantic record (no geometry) of `entries[index]`; `hits` are its
 * {@link ownerHits} when the caller already has them.
 */
export function semanticRecord(entries: readonly WalkEntry[], index: number, ctx: RecordContext, hits?: readonly OwnerHit[]): NodeRecord {
  const entry = entries[index] as WalkEntry;
  const el = entry.el;
  const b = ctx.stringBytes;
  const record: NodeRecord = { id: entry.id, tag: el.localName, state: { visible: entry.visible }, locators: [] };
  const parent = entries[entry.parentIndex];
  if (parent !== undefined) record.parentId = parent.id;
  if (entry.componentId !== undefined) record.componentId = entry.componentId;
  if (entry.inShadow) record.inShadowRoot = true;
  if (entry.redacted) {
    record.redacted = true;
    record.text = REDACTED;
    if (entry.testId !== undefined) record.testId = truncateUtf8(entry.testId, b);
    record.locators = locatorsOf({ el, testId: entry.testId, redacted: true, stringBytes: b, cssCache: ctx.cssCache, inShadow: entry.inShadow });
    return record;
  }
  const isControl = el.localName === "input" || el.localName === "select" || el.localName === "textarea";
  if (entry.role !== undefined) record.role = entry.role;
  const computed = entry.role !== undefined || isControl ? accessibleNameOf(el, ctx.rules, ctx.labels) : undefined;
  const name = computed !== undefined ? truncateUtf8(scrubSecrets(computed.name), b) : "";
  if (name !== "") record.name = name;
  if (entry.ownText !== "") record.text = truncateUtf8(scrubSecrets(entry.ownText), b);
  if (entry.testId !== undefined) record.testId = truncateUtf8(entry.testId, b);
  record.state = stateOf(el, entry.visible, ctx.focused === el, b);
  const placeholder = el.getAttribute("placeholder") ?? undefined;
  record.locators = locatorsOf({
    el,
    role: entry.role,
    name,
    // What the driver's `label(...)` matches: a name from labels, aria-label or aria-labelledby.
    label: isControl && computed !== undefined && LABEL_SOURCES.has(computed.source) ? name : undefined,
    testId: entry.testId,
    placeholder: placeholder !== undefined ? scrubSecrets(placeholder) : undefined,
    ownText: entry.ownText !== "" ? scrubSecrets(entry.ownText) : undefined,
    redacted: false,
    stringBytes: b,
    cssCache: ctx.cssCache,
    inShadow: entry.inShadow,
  });
  const mapping = sourceMappingOf(candidatesFor(hits ?? ownerHits(entries, index, ctx), ctx.lookupMap));
  if (mapping !== undefined) record.sourceMapping = mapping;
  if (ctx.forensic) {
    const classes = Array.from(el.classList, (c) => truncateUtf8(c, b));
    if (classes.length > 0) record.classes = classes;
    record.attributes = safeAttributes(el, b);
    const styles: { [name: string]: string } = {};
    for (const p of FORENSIC_STYLES) styles[p] = entry.style.getPropertyValue(p);
    record.styles = styles;
  }
  return record;
}

/** Returns a copy of `record` with geometry evidence attached. */
export function withGeometry(
  record: NodeRecord,
  entry: WalkEntry,
  frame: ViewportFrame,
  platform: Platform,
  hitTest: boolean,
): NodeRecord {
  return {
    ...record,
    geometry: geometryOf({
      el: entry.el,
      rect: entryRect(entry, platform),
      style: entry.style,
      frame,
      clip: entry.clip,
      ...(entry.scrollContainerId !== undefined ? { scrollContainerNodeId: entry.scrollContainerId } : {}),
      hitTest: hitTest && entry.visible,
      platform,
    }),
  };
}

/** The deep focused element (through open shadow roots). */
export function deepActiveElement(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active !== null && active.shadowRoot !== null && active.shadowRoot.activeElement !== null) {
    active = active.shadowRoot.activeElement;
  }
  return active;
}
