//! Node ids: a WeakMap side table from elements to opaque ids (never written into the DOM) and a
//! weak reverse index for `resolve`. Ids are stable for an element's lifetime within one runtime
//! and must not be persisted by callers.

/** Assigns and resolves node ids. */
export class NodeIdTable {
  readonly #ids = new WeakMap<Element, string>();
  readonly #byId = new Map<string, WeakRef<Element>>();
  #next = 1;

  /** The id of `el`, assigned on first sight. */
  idOf(el: Element): string {
    let id = this.#ids.get(el);
    if (id === undefined) {
      id = `n${this.#next++}`;
      this.#ids.set(el, id);
      this.#byId.set(id, new WeakRef(el));
    }
    return id;
  }

  /** The id of `el` if it has one. */
  peek(el: Element): string | undefined {
    return this.#ids.get(el);
  }

  /** The element for `id`, or null when unknown or collected. */
  resolve(id: string): Element | null {
    const ref = this.#byId.get(id);
    if (ref === undefined) return null;
    const el = ref.deref();
    if (el === undefined) {
      this.#byId.delete(id);
      return null;
    }
    return el;
  }

  /** Drops reverse entries whose elements were collected (bounded housekeeping). */
  sweep(): void {
    for (const [id, ref] of this.#byId) if (ref.deref() === undefined) this.#byId.delete(id);
  }
}
