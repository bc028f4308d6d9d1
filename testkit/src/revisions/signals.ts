//! Change signals that advance the revision: MutationObserver (document and every open shadow
//! root met), ResizeObserver (document element and body), route (pushState/replaceState/popstate/
//! hashchange), viewport (resize, visual viewport), scroll, form input/change, and focus. Nothing
//! here polls. The Review Overlay's host is ignored.
import type { SignalKind } from "../protocol";
import { isInsideOverlay } from "../snapshot/walk";

/** Receives signals. */
export type SignalSink = (kind: SignalKind) => void;

/** Live signal sources of one window. */
export interface SignalSources {
  /** Observes a shadow root (idempotent). */
  observeShadowRoot(root: ShadowRoot): void;
  /** Delivers queued mutation records synchronously. */
  takeRecords(): void;
  /** True when DOM mutations are observed (a MutationObserver exists in this window). */
  readonly observesMutations: boolean;
  /** Disconnects everything and restores patched history methods. */
  stop(): void;
}

const MUTATION_OPTIONS: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

type HistoryMethod = History["pushState"];

/**
 * Starts observing `win`; every signal goes to `sink`. `onMutations`, if given, receives every
 * relevant mutation record (outside the overlay) before the signal is sent.
 */
export function startSignals(window: Window, sink: SignalSink, onMutations?: (records: readonly MutationRecord[]) => void): SignalSources {
  // Constructors come from the observed window (it may be another realm than this module's).
  const win = window as Window & typeof globalThis;
  const doc = win.document;
  const cleanups: Array<() => void> = [];
  const shadowRoots = new WeakSet<ShadowRoot>();

  const onRecords = (records: MutationRecord[]) => {
    const relevant: MutationRecord[] = [];
    for (const r of records) {
      if (isInsideOverlay(r.target)) continue;
      relevant.push(r);
      for (const added of Array.from(r.addedNodes)) if (added.nodeType === 1) scanShadowRoots(added as Element);
    }
    if (relevant.length === 0) return;
    onMutations?.(relevant);
    sink("mutation");
  };
  const mutations = typeof win.MutationObserver === "function" ? new win.MutationObserver(onRecords) : null;
  mutations?.observe(doc, MUTATION_OPTIONS);
  cleanups.push(() => mutations?.disconnect());

  const listen = (target: EventTarget, type: string, kind: SignalKind, capture: boolean) => {
    const handler = (event: Event) => {
      const origin = typeof event.composedPath === "function" ? event.composedPath()[0] : event.target;
      if (origin instanceof win.Node && isInsideOverlay(origin)) return;
      sink(kind);
    };
    target.addEventListener(type, handler, { capture, passive: true });
    cleanups.push(() => target.removeEventListener(type, handler, { capture }));
  };

  const observeShadowRoot = (root: ShadowRoot) => {
    if (shadowRoots.has(root) || isInsideOverlay(root.host)) return;
    shadowRoots.add(root);
    mutations?.observe(root, MUTATION_OPTIONS);
    // scroll events are not composed: they never leave the shadow root, so listen inside it.
    listen(root, "scroll", "scroll", true);
  };

  function scanShadowRoots(el: Element): void {
    const stack: Element[] = [el, ...Array.from(el.querySelectorAll("*"))];
    for (let cur = stack.pop(); cur !== undefined; cur = stack.pop()) {
      const root = cur.shadowRoot;
      if (root !== null && !shadowRoots.has(root)) {
        observeShadowRoot(root);
        stack.push(...Array.from(root.querySelectorAll("*")));
      }
    }
  }
  if (doc.documentElement !== null) scanShadowRoots(doc.documentElement);

  if (typeof win.ResizeObserver === "function") {
    // The first delivery for each observed element reports its initial size, not a change.
    const seen = new WeakSet<Element>();
    const resize = new win.ResizeObserver((entries: ResizeObserverEntry[]) => {
      let changed = false;
      for (const e of entries) {
        if (seen.has(e.target)) changed = true;
        else seen.add(e.target);
      }
      if (changed) sink("resize");
    });
    resize.observe(doc.documentElement);
    if (doc.body !== null) resize.observe(doc.body);
    cleanups.push(() => resize.disconnect());
  }

  listen(win, "popstate", "route", false);
  listen(win, "hashchange", "route", false);
  listen(win, "resize", "viewport", false);
  if (win.visualViewport) {
    listen(win.visualViewport, "resize", "viewport", false);
    listen(win.visualViewport, "scroll", "viewport", false);
  }
  listen(doc, "scroll", "scroll", true);
  listen(doc, "input", "input", true);
  listen(doc, "change", "input", true);
  listen(doc, "focusin", "focus", true);
  listen(doc, "focusout", "focus", true);

  // There is no event for pushState/replaceState, so the instance methods are wrapped. The
  // wrappers are own properties of this History object; dispose removes them when still ours.
  const history = win.history;
  for (const name of ["pushState", "replaceState"] as const) {
    const original = history[name];
    let active = true;
    const wrapper: HistoryMethod = function (this: History, ...args: Parameters<HistoryMethod>) {
      const result = original.apply(this, args);
      if (active) sink("route");
      return result;
    };
    Object.defineProperty(history, name, { value: wrapper, configurable: true, writable: true, enumerable: false });
    cleanups.push(() => {
      active = false;
      if (Object.prototype.hasOwnProperty.call(history, name) && history[name] === wrapper) {
        delete (history as unknown as Record<string, unknown>)[name];
      }
    });
  }

  return {
    observesMutations: mutations !== null,
    observeShadowRoot,
    takeRecords: () => {
      if (mutations === null) return;
      const records = mutations.takeRecords();
      if (records.length > 0) onRecords(records);
    },
    stop: () => {
      for (const c of cleanups.splice(0).reverse()) c();
    },
  };
}
