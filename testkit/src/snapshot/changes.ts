//! Change marks: MutationObserver records turned into epochs that tell which cached records and
//! facts may be stale.
//
// A record computed at stamp S stays valid for an element while every mark that reaches it is
// ≤ S. What a mutation marks, and why:
// - the target's chain of ancestors, *self* marks: names from content and legends/captions read
//   descendants' text;
// - childList: the parent's *subtree*: nth-of-type positions (css paths) of its children and so
//   of every path below them; ids of added/removed elements, as *id* marks, since a css path is
//   anchored on an id only while that id is unique in its root;
// - attributes: the element (and, with redaction selectors, its subtree: selectors read
//   ancestors' attributes); an `id` change resets everything (anchors, labels, aria references);
// - characterData: the text's parent (own text) and its ancestors;
// - anything inside or around a `<label>` (a chain through a label, a label added or removed, or
//   with redaction selectors any attribute change): the *labels* mark, since a form control's
//   name comes from labels elsewhere in the tree.
// Reads that no mutation reports — computed style, form control properties, focus, aria
// references, registrations — are re-checked or never cached by the record cache; this module
// only covers the DOM tree, its attributes and its text.

/** Marks readable by a walk. */
export interface ChangeMarks {
  /** Records stamped before this must all be recomputed. */
  readonly resetAt: number;
  /** Last epoch in which a label (its text, target or presence) may have changed. */
  readonly labelsAt: number;
  /** Highest mark on the node itself (0 = never). */
  selfOf(node: Node): number;
  /** Highest mark on the node's whole subtree (0 = never). */
  subtreeOf(node: Node): number;
  /** Highest mark on elements carrying `id` (0 = never); `hasIdMarks` is false when none exist. */
  idMark(id: string): number;
  readonly hasIdMarks: boolean;
}

/** Node types (numeric, so nodes of another realm work too). */
const ELEMENT = 1;
const DOCUMENT = 9;
const FRAGMENT = 11;

/** Most distinct ids remembered before everything is reset instead. */
const MAX_ID_MARKS = 4096;

/** The parent of `node`, stepping from a shadow root to its host. */
function parentOf(node: Node): Node | null {
  const parent = node.parentNode;
  if (parent === null && node.nodeType === FRAGMENT) return (node as ShadowRoot).host ?? null;
  return parent;
}

function isLabel(node: Node): boolean {
  return node.nodeType === ELEMENT && (node as Element).localName === "label";
}

/** Collects change marks from mutation records. */
export class ChangeTracker implements ChangeMarks {
  #epoch = 1;
  #reset = 0;
  #labels = 0;
  readonly #self = new WeakMap<Node, number>();
  readonly #subtree = new WeakMap<Node, number>();
  readonly #ids = new Map<string, number>();

  readonly #attributesReachSubtree: boolean;

  /**
   * @param attributesReachSubtree true when redaction selectors exist: an attribute change may
   *   then redact or reveal descendants, so it marks the whole subtree
   */
  constructor(attributesReachSubtree: boolean) {
    this.#attributesReachSubtree = attributesReachSubtree;
  }

  get resetAt(): number {
    return this.#reset;
  }

  get labelsAt(): number {
    return this.#labels;
  }

  get hasIdMarks(): boolean {
    return this.#ids.size > 0;
  }

  selfOf(node: Node): number {
    return this.#self.get(node) ?? 0;
  }

  subtreeOf(node: Node): number {
    return this.#subtree.get(node) ?? 0;
  }

  idMark(id: string): number {
    return this.#ids.get(id) ?? 0;
  }

  /**
   * Closes the current epoch and returns its stamp: marks made so far are ≤ the stamp, marks
   * made afterwards are above it. Call right before reading the page for a projection.
   */
  stamp(): number {
    return this.#epoch++;
  }

  /** Invalidates every record computed so far (registrations changed, an id changed, …). */
  invalidateAll(): void {
    this.#reset = this.#epoch;
    this.#ids.clear();
  }

  /** Applies a batch of mutation records. */
  apply(records: readonly MutationRecord[]): void {
    for (const r of records) this.#applyOne(r);
  }

  #applyOne(r: MutationRecord): void {
    const target = r.target;
    if (r.type === "attributes") {
      if (r.attributeName === "id") {
        this.invalidateAll();
        return;
      }
      if (this.#attributesReachSubtree) {
        this.#subtree.set(target, this.#epoch);
        // A redacted or revealed label changes the names of the controls it labels.
        this.#labels = this.#epoch;
      }
      this.#markChain(target);
      return;
    }
    if (r.type === "characterData") {
      const parent = parentOf(target);
      if (parent !== null) this.#markChain(parent);
      return;
    }
    // childList
    if (target.nodeType === DOCUMENT) {
      // The document element itself was replaced.
      this.invalidateAll();
      return;
    }
    this.#subtree.set(target, this.#epoch);
    this.#markChain(target);
    this.#markAddedOrRemoved(r.addedNodes);
    this.#markAddedOrRemoved(r.removedNodes);
  }

  /** Self-marks `node` and its ancestors (crossing shadow hosts). */
  #markChain(node: Node): void {
    for (let cur: Node | null = node; cur !== null; cur = parentOf(cur)) {
      // An ancestor marked in this epoch had its whole chain marked then.
      if (this.#self.get(cur) === this.#epoch) return;
      this.#self.set(cur, this.#epoch);
      if (isLabel(cur)) this.#labels = this.#epoch;
    }
  }

  /** Id marks for elements with ids, and the labels mark for labels, in added/removed subtrees. */
  #markAddedOrRemoved(nodes: NodeList): void {
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as Node;
      if (node.nodeType !== ELEMENT) continue;
      const el = node as Element;
      if (isLabel(el)) this.#labels = this.#epoch;
      const own = el.getAttribute("id");
      if (own !== null) this.#markId(own);
      if (el.firstElementChild === null) continue;
      const withIds = el.querySelectorAll("[id]");
      for (let k = 0; k < withIds.length; k++) this.#markId((withIds[k] as Element).getAttribute("id") ?? "");
      if (this.#labels !== this.#epoch && el.querySelector("label") !== null) this.#labels = this.#epoch;
    }
  }

  #markId(id: string): void {
    if (this.#ids.size >= MAX_ID_MARKS && !this.#ids.has(id)) {
      this.invalidateAll();
      return;
    }
    this.#ids.set(id, this.#epoch);
  }
}

/**
 * Highest subtree or id mark of the ancestors of `node` (crossing shadow hosts): what reaches a
 * walk that starts below the body (node and component scopes).
 */
export function markAbove(node: Node, marks: ChangeMarks): number {
  let reach = 0;
  for (let cur = parentOf(node); cur !== null; cur = parentOf(cur)) {
    reach = Math.max(reach, marks.subtreeOf(cur));
    if (marks.hasIdMarks && cur.nodeType === ELEMENT) {
      const id = (cur as Element).getAttribute("id");
      if (id !== null) reach = Math.max(reach, marks.idMark(id));
    }
  }
  return reach;
}
