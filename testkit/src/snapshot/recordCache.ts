//! Reuse of unchanged node records (record, encoded size, semantic hash) between projections.
//
// A record is reused only when nothing it was computed from can have changed:
// - no change mark reaches the element since the record's stamp (see `changes.ts`: the DOM tree,
//   attributes and text of the element, its subtree and what its css path depends on);
// - everything the walk derives on each projection is equal: parent and component ids, shadow
//   membership, visibility (computed style), and the element's own facts (role, test id, own
//   text, redaction: the same memoized object);
// - focus on the element and its chain of source owners are equal;
// - for form controls and options: the properties no mutation reports (value, checked,
//   indeterminate, selected) are equal, and no label changed since (their names come from
//   labels elsewhere in the tree);
// - the element is not volatile: custom and customized built-in elements (state from getters)
//   and elements named by `aria-labelledby` (text of other elements) are rebuilt every time.
// Cached records are frozen (see `freezeRecord`): they are shared by every projection that
// reuses them.
import type { NodeRecord } from "../protocol";
import { isSecretControl } from "../privacy/redact";
import type { OwnerHit } from "../source/mapping";
import type { ChangeMarks } from "./changes";
import { LABELLED_TAGS } from "./describe";
import type { CssPathCache } from "./locators";
import type { OwnFacts } from "./ownFacts";
import type { WalkEntry } from "./walk";

/** A record with what it was computed from. */
interface CachedRecord {
  stamp: number;
  parentId: string | undefined;
  componentId: string | undefined;
  inShadow: boolean;
  visible: boolean;
  facts: OwnFacts;
  focused: boolean;
  hits: readonly OwnerHit[];
  /** Property state of a form control (see {@link controlStateOf}); undefined otherwise. */
  control: string | undefined;
  record: NodeRecord;
  bytes: number;
  hash: number;
}

/** A reusable record: the record, its encoded size and its semantic hash. */
export interface ReusedRecord {
  record: NodeRecord;
  bytes: number;
  hash: number;
}

/** What a projection knows about one entry beyond the entry itself. */
export interface EntryContext {
  parentId: string | undefined;
  focused: boolean;
  hits: readonly OwnerHit[];
}

/** Elements named by labels (see `accessibleNameOf`) or with property state (options). */
const CONTROL_TAGS: ReadonlySet<string> = new Set([...LABELLED_TAGS, "option"]);

/** True for elements whose records are rebuilt on every projection (see the module doc). */
export function isVolatile(el: Element): boolean {
  if (el.localName.includes("-")) return true;
  return el.hasAttributes() && (el.hasAttribute("aria-labelledby") || el.hasAttribute("is"));
}

/**
 * The state of a form control that lives in properties, not attributes — everything of it that
 * a record reads (value, and so whether a secret value is present; checked; indeterminate;
 * selected) — or undefined for other elements.
 */
export function controlStateOf(el: Element): string | undefined {
  const tag = el.localName;
  if (!CONTROL_TAGS.has(tag)) return undefined;
  if (tag === "input" || tag === "textarea" || tag === "select") {
    const control = el as HTMLInputElement;
    // Of a secret value a record holds only whether there is one; so does this state.
    const value = isSecretControl(el) ? (control.value === "" ? "" : "set") : control.value;
    return tag === "input" ? `${control.checked ? 1 : 0}${control.indeterminate ? 1 : 0}${value}` : value;
  }
  if (tag === "option") return (el as HTMLOptionElement).selected ? "1" : "0";
  return "";
}

function sameHits(a: readonly OwnerHit[], b: readonly OwnerHit[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as OwnerHit;
    const y = b[i] as OwnerHit;
    if (x.level !== y.level || x.owner.span !== y.owner.span || x.owner.registrationId !== y.owner.registrationId || x.owner.origin !== y.owner.origin) {
      return false;
    }
  }
  return true;
}

/**
 * Freezes the objects a record owns and shares with every response that reuses it (state,
 * locators, source mapping, candidates and spans mapped through a source map). Registered spans
 * belong to the registrations and are left alone.
 */
function freezeRecord(record: NodeRecord): NodeRecord {
  Object.freeze(record.state);
  for (const l of record.locators) {
    if (l.kind === "css" && l.shadowHosts !== undefined) Object.freeze(l.shadowHosts);
    Object.freeze(l);
  }
  Object.freeze(record.locators);
  const mapping = record.sourceMapping;
  if (mapping !== undefined) {
    for (const c of mapping.candidates) {
      // A source-map span is built for the record; others are the registrations' own spans.
      if (c.origin === "source_map") Object.freeze(c.span);
      Object.freeze(c);
    }
    Object.freeze(mapping.candidates);
    Object.freeze(mapping);
  }
  // The record object itself is never handed out: responses carry copies with geometry added.
  return record;
}

/** Records of one projection kind (detail and string limit), keyed weakly by element. */
export class RecordCache {
  readonly #byElement = new WeakMap<Element, CachedRecord>();
  /** Css paths of rebuilt records: a path outlives its record (e.g. a form control's). */
  readonly #paths = new WeakMap<Element, { stamp: number; path: string }>();

  /**
   * Puts the element's earlier css path into `cssCache` when no change mark reached it since;
   * returns whether it did.
   */
  seedPath(entry: WalkEntry, cssCache: CssPathCache, resetAt: number): boolean {
    const p = this.#paths.get(entry.el);
    if (p === undefined || p.stamp < resetAt || entry.pathMark > p.stamp) return false;
    cssCache.paths.set(entry.el, p.path);
    return true;
  }

  /** Remembers the css path `cssCache` computed for the element at `stamp`. */
  rememberPath(entry: WalkEntry, cssCache: CssPathCache, stamp: number): void {
    const path = cssCache.paths.get(entry.el);
    if (path !== undefined) this.#paths.set(entry.el, { stamp, path });
  }

  /**
   * The cached record of `entry` if still valid at a projection reading `marks`.
   * (Volatile elements are never stored, and becoming volatile takes an attribute change, which
   * marks the element.)
   */
  reuse(entry: WalkEntry, ctx: EntryContext, marks: ChangeMarks): ReusedRecord | undefined {
    const c = this.#byElement.get(entry.el);
    if (c === undefined) return undefined;
    const valid =
      c.stamp >= marks.resetAt &&
      entry.mark <= c.stamp &&
      c.parentId === ctx.parentId &&
      c.componentId === entry.componentId &&
      c.inShadow === entry.inShadow &&
      c.visible === entry.visible &&
      // Memoized facts are re-read (a new object) only when a mark reaches the element, which the
      // mark check covers already; comparing identities is a cheap guard.
      c.facts === entry.facts &&
      c.focused === ctx.focused &&
      sameHits(c.hits, ctx.hits) &&
      (c.control === undefined || (c.stamp >= marks.labelsAt && c.control === controlStateOf(entry.el)));
    // A stale entry is left in place: the rebuilt record replaces it (see `store`), and a volatile
    // element's is never valid again (becoming volatile took an attribute change, a mark).
    return valid ? c : undefined;
  }

  /** Stores a freshly built record computed at `stamp` (volatile elements are not stored). */
  store(entry: WalkEntry, ctx: EntryContext, stamp: number, built: ReusedRecord): void {
    if (isVolatile(entry.el)) return;
    this.#byElement.set(entry.el, {
      stamp,
      parentId: ctx.parentId,
      componentId: entry.componentId,
      inShadow: entry.inShadow,
      visible: entry.visible,
      facts: entry.facts,
      focused: ctx.focused,
      hits: ctx.hits,
      control: controlStateOf(entry.el),
      record: freezeRecord(built.record),
      bytes: built.bytes,
      hash: built.hash,
    });
  }
}
