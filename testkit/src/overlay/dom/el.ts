/**
 * A tiny element builder for the overlay's shadow root: no framework inside the overlay keeps
 * its entry small. Attributes are set as attributes (never as host-page styles), `on*` keys add
 * listeners, and children may be strings, nodes or nothing.
 */

/** Attribute values; `false`, `null` and `undefined` leave the attribute out. */
export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;
/** Children of {@link h}. */
export type Child = Node | string | null | undefined | false;

/** Creates an element in `doc` with attributes, listeners and children. */
export function h(doc: Document, tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, "");
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === "string" ? doc.createTextNode(child) : child);
  }
  return el;
}

/** An SVG element (markers and drawings). */
export function svg(doc: Document, tag: string, attrs: Record<string, string | number> = {}): SVGElement {
  const el = doc.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}
