//! The accessible-name computation: `aria-labelledby`, `aria-label`, a button's value, native
//! labels (`<label for>` and wrapping labels), alt text, placeholder, legend/caption/figcaption,
//! name from content for the roles that allow it, then `title`. Hidden content is skipped except
//! under `aria-labelledby`, which may name an element after hidden text. Whitespace is collapsed.
//!
//! This is the one computation: the driver's resolver (bundled into `a11y.generated.js`) and the
//! Test Kit snapshot both call it, so a locator one of them writes the other resolves.
import { childNodesComposed, hiddenFromA11y, inputType, norm, styleOf } from "./dom";
import { roleOf } from "./role";

/** Where a name came from; `label(...)` locators match only the label-like sources. */
export type NameSource = "labelledby" | "aria-label" | "value" | "label" | "alt" | "placeholder" | "content" | "title" | "none";

/** An accessible name and its source. */
export interface AccessibleName {
  name: string;
  source: NameSource;
}

/** Sources that make a name a label (what a `label(...)` locator matches). */
export const LABEL_SOURCES: ReadonlySet<NameSource> = new Set<NameSource>(["labelledby", "aria-label", "label"]);

/** Hooks for callers with privacy rules or indexes; the driver passes none. */
export interface NameOptions {
  /** True for an element whose subtree must never be read (it is skipped as content). */
  excluded?: (el: Element) => boolean;
  /** True for an element inside an excluded subtree (a referenced label there is not read). */
  excludedTree?: (el: Element) => boolean;
  /**
   * The value an embedded control contributes to a name from content (default: `controlValue`).
   * The Test Kit passes `() => ""`: values change without mutations and may be secret.
   */
  embeddedValue?: (control: Element) => string;
  /** The labels of a labelable control (default: `control.labels`). */
  labelsOf?: (control: Element) => readonly Element[];
}

/** Roles whose name may come from their content. */
export const NAME_FROM_CONTENT: ReadonlySet<string> = new Set([
  "button", "cell", "checkbox", "columnheader", "gridcell", "heading", "link", "menuitem",
  "menuitemcheckbox", "menuitemradio", "option", "radio", "row", "rowheader", "switch", "tab",
  "tooltip", "treeitem",
]);

/** Tags whose labels (`<label>`) name them. */
export const LABELLED_TAGS: ReadonlySet<string> = new Set(["input", "textarea", "select", "button", "meter", "progress", "output"]);

const SKIPPED = new Set(["script", "style", "template", "noscript"]);
const CAPTION_OF: Readonly<Record<string, string>> = { fieldset: "legend", table: "caption", figure: "figcaption" };

const NONE: NameOptions = {};

/** A form control's value as content (a password's is never read). */
export function controlValue(el: Element): string {
  if (el.localName === "select") {
    const o = (el as HTMLSelectElement).selectedOptions[0];
    return o !== undefined ? (o.textContent ?? "") : "";
  }
  if (el.localName === "input" && inputType(el) === "password") return "";
  return (el as HTMLInputElement).value ?? "";
}

/**
 * The text of `el`'s content for a name (not normalised); `visiting` breaks reference cycles.
 * Unless `includeHidden`, nothing of a hidden `el` and no hidden descendant is read.
 */
export function contentName(el: Element, visiting: Set<Element>, includeHidden: boolean, opts: NameOptions = NONE): string {
  if (!includeHidden && hiddenFromA11y(el)) return "";
  return contentOf(el, visiting, includeHidden, opts);
}

/**
 * A child of a shown element is hidden by its own `aria-hidden`, `display: none` or (inherited)
 * `visibility`: one style read per child instead of a walk over its ancestors.
 */
function hiddenBelowShown(el: Element, style: CSSStyleDeclaration): boolean {
  if (el.getAttribute("aria-hidden") === "true") return true;
  if (el.localName === "option" || el.localName === "optgroup") return false;
  return style.display === "none" || style.visibility === "hidden" || style.visibility === "collapse";
}

function contentOf(el: Element, visiting: Set<Element>, includeHidden: boolean, opts: NameOptions): string {
  let out = "";
  for (const child of childNodesComposed(el)) {
    if (child.nodeType === 3) {
      out += (child as Text).data;
      continue;
    }
    if (child.nodeType !== 1) continue;
    const c = child as Element;
    if (visiting.has(c) || SKIPPED.has(c.localName)) continue;
    if (opts.excluded !== undefined && opts.excluded(c)) continue;
    const style = styleOf(c);
    if (!includeHidden && hiddenBelowShown(c, style)) continue;
    const block = !style.display.startsWith("inline");
    visiting.add(c);
    let part: string;
    const label = norm(c.getAttribute("aria-label"));
    if (label !== "") part = label;
    else if (c.localName === "input" || c.localName === "select" || c.localName === "textarea") part = (opts.embeddedValue ?? controlValue)(c);
    else if (c.localName === "img") part = c.getAttribute("alt") ?? "";
    else part = contentOf(c, visiting, includeHidden, opts);
    visiting.delete(c);
    out += block ? ` ${part} ` : part;
  }
  return out;
}

function byId(el: Element, id: string): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  if (typeof root.getElementById === "function") return root.getElementById(id);
  return el.ownerDocument.getElementById(id);
}

function readable(el: Element, opts: NameOptions): boolean {
  return opts.excludedTree === undefined || !opts.excludedTree(el);
}

function labelledBy(el: Element, visiting: Set<Element>, opts: NameOptions): string {
  const ids = (el.getAttribute("aria-labelledby") ?? "").trim();
  if (ids === "") return "";
  const parts: string[] = [];
  for (const id of ids.split(/\s+/)) {
    const n = byId(el, id);
    if (n === null || !readable(n, opts)) continue;
    parts.push(norm(n.getAttribute("aria-label")) || contentName(n, visiting, true, opts));
  }
  return norm(parts.join(" "));
}

function labelsOf(el: Element, opts: NameOptions): readonly Element[] {
  if (opts.labelsOf !== undefined) return opts.labelsOf(el);
  const labels = (el as HTMLInputElement).labels;
  return labels === null || labels === undefined ? [] : Array.from(labels);
}

function nativeLabel(el: Element, visiting: Set<Element>, opts: NameOptions): string {
  const texts: string[] = [];
  for (const l of labelsOf(el, opts)) if (readable(l, opts)) texts.push(contentName(l, visiting, false, opts));
  return norm(texts.join(" "));
}

/** Name sources tried before content: value, label, alt, placeholder, caption. */
function native(el: Element, visiting: Set<Element>, opts: NameOptions): AccessibleName | undefined {
  const tag = el.localName;
  const type = tag === "input" ? inputType(el) : "";
  if (tag === "input" && (type === "button" || type === "submit" || type === "reset")) {
    const v = norm(el.getAttribute("value"));
    if (v !== "") return { name: v, source: "value" };
    if (type === "submit") return { name: "Submit", source: "value" };
    if (type === "reset") return { name: "Reset", source: "value" };
  }
  if (LABELLED_TAGS.has(tag)) {
    const s = nativeLabel(el, visiting, opts);
    if (s !== "") return { name: s, source: "label" };
  }
  if ((tag === "input" && type === "image") || tag === "img" || tag === "area") {
    const alt = norm(el.getAttribute("alt"));
    if (alt !== "") return { name: alt, source: "alt" };
  }
  if (tag === "input" || tag === "textarea") {
    const p = norm(el.getAttribute("placeholder"));
    if (p !== "") return { name: p, source: "placeholder" };
  }
  const captionTag = CAPTION_OF[tag];
  if (captionTag !== undefined) {
    const c = Array.from(el.children).find((k) => k.localName === captionTag);
    const s = c !== undefined && readable(c, opts) ? norm(contentName(c, visiting, false, opts)) : "";
    if (s !== "") return { name: s, source: "content" };
  }
  return undefined;
}

/** The accessible name of `el` and where it came from. */
export function accName(el: Element, opts: NameOptions = NONE): AccessibleName {
  const visiting = new Set<Element>([el]);
  const byRef = labelledBy(el, visiting, opts);
  if (byRef !== "") return { name: byRef, source: "labelledby" };
  const label = norm(el.getAttribute("aria-label"));
  if (label !== "") return { name: label, source: "aria-label" };
  const fromNative = native(el, visiting, opts);
  if (fromNative !== undefined) return fromNative;
  const role = roleOf(el);
  if (role !== undefined && NAME_FROM_CONTENT.has(role)) {
    const s = norm(contentName(el, visiting, false, opts));
    if (s !== "") return { name: s, source: "content" };
  }
  const title = norm(el.getAttribute("title"));
  if (title !== "") return { name: title, source: "title" };
  return { name: "", source: "none" };
}
