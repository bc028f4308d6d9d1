//! DOM helpers the role and name computations share: whitespace normalisation, the composed
//! tree (open shadow roots and slots) and whether an element is hidden from assistive technology.
//! Everything here only reads the page; nothing is installed or cached on its nodes.

/** Collapses runs of whitespace to one space and trims (the accessible-name normalisation). */
export function norm(s: string | null | undefined): string {
  return String(s ?? "").replace(/\s+/g, " ").trim();
}

/** The lower-case `type` attribute of an `<input>` (`""` when absent). */
export function inputType(el: Element): string {
  return (el.getAttribute("type") ?? "").toLowerCase();
}

/** The parent in the composed tree: the parent element, else the shadow host. */
export function parentComposed(n: Node): Element | null {
  if (n.parentElement !== null) return n.parentElement;
  const p = n.parentNode;
  if (p !== null && (p as ShadowRoot).host !== undefined) return (p as ShadowRoot).host;
  return null;
}

/** Children in the composed tree: a shadow root's children, a slot's assigned (or default) nodes. */
export function childNodesComposed(node: Node): Node[] {
  const el = node as Element;
  if (el.shadowRoot !== undefined && el.shadowRoot !== null) return Array.from(el.shadowRoot.childNodes);
  if (el.localName === "slot") {
    const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
    return assigned.length > 0 ? assigned : Array.from(el.childNodes);
  }
  return Array.from(node.childNodes);
}

/** The computed style of `el` in its own window. */
export function styleOf(el: Element): CSSStyleDeclaration {
  const win = el.ownerDocument.defaultView ?? window;
  return win.getComputedStyle(el);
}

type CheckVisibility = (options?: { visibilityProperty?: boolean }) => boolean;

/** True when `el` is rendered: connected, not `display: none` (itself or above), not `visibility: hidden`. */
export function rendered(el: Element): boolean {
  if (!el.isConnected) return false;
  if (el.localName === "option" || el.localName === "optgroup") {
    const select = el.closest("select");
    return select !== null && rendered(select);
  }
  const check = (el as Element & { checkVisibility?: CheckVisibility }).checkVisibility;
  if (typeof check === "function") {
    if (styleOf(el).display === "contents") {
      const p = parentComposed(el);
      return p === null || rendered(p);
    }
    return check.call(el, { visibilityProperty: true });
  }
  // Without `checkVisibility` (jsdom, old engines): the display chain and own visibility.
  for (let n: Element | null = el; n !== null; n = parentComposed(n)) {
    if (styleOf(n).display === "none") return false;
  }
  const v = styleOf(el).visibility;
  return v !== "hidden" && v !== "collapse";
}

/** True when `el` or a composed ancestor has `aria-hidden="true"`, or `el` is not rendered. */
export function hiddenFromA11y(el: Element): boolean {
  for (let n: Element | null = el; n !== null; n = parentComposed(n)) {
    if (n.getAttribute("aria-hidden") === "true") return true;
  }
  return !rendered(el);
}
