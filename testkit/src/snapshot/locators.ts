//! Locators in the documented preference order — role+name, label, test id, placeholder, text,
//! css — at most five per node. Geometry is never a locator; a css path is the last resort.
import type { Locator } from "../protocol";
import { truncateUtf8 } from "../util/utf8";

/** What locator building needs to know about a node (already privacy-filtered). */
export interface LocatorInput {
  el: Element;
  role?: string;
  name?: string;
  label?: string;
  testId?: string;
  placeholder?: string;
  ownText?: string;
  /** Set for redacted roots: content-derived locators are not produced. */
  redacted: boolean;
  stringBytes: number;
  /** Per-snapshot memo of css paths. */
  cssCache?: CssPathCache;
  /** False when the element is known to be outside any shadow tree (skips looking for hosts). */
  inShadow?: boolean;
}

/** Most locators per node. */
export const MAX_LOCATORS = 5;
const MAX_TEXT_LOCATOR_CHARS = 80;

const CSS_IDENT = /^-?[_a-zA-Z][_a-zA-Z0-9-]*$/;

function cssEscape(value: string): string {
  if (typeof CSS !== "undefined" && typeof CSS.escape === "function") return CSS.escape(value);
  return value.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c.codePointAt(0)?.toString(16) ?? ""} `);
}

function attrValue(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * Per-snapshot memo for css paths: finished paths, sibling positions (one scan per parent) and
 * id counts (one query per root), so building every node's path stays linear in the page size.
 */
export class CssPathCache {
  readonly paths = new Map<Element, string>();
  readonly #positions = new Map<Element, { index: number; count: number }>();
  readonly #scanned = new WeakSet<Element>();
  readonly #ids = new Map<Node, Map<string, number>>();

  /** 1-based position of `el` among same-tag siblings and how many there are. */
  position(el: Element, parent: Element): { index: number; count: number } {
    if (!this.#scanned.has(parent)) {
      this.#scanned.add(parent);
      const counts = new Map<string, number>();
      const children: Element[] = [];
      for (let c = parent.firstElementChild; c !== null; c = c.nextElementSibling) {
        children.push(c);
        const n = (counts.get(c.localName) ?? 0) + 1;
        counts.set(c.localName, n);
        this.#positions.set(c, { index: n, count: 0 });
      }
      for (const c of children) {
        const p = this.#positions.get(c);
        if (p !== undefined) p.count = counts.get(c.localName) ?? 1;
      }
    }
    return this.#positions.get(el) ?? { index: 1, count: 1 };
  }

  /** How many elements of `el`'s root carry `id` (a CSS identifier). */
  idCount(el: Element, id: string): number {
    const root = el.getRootNode() as Document | ShadowRoot;
    let counts = this.#ids.get(root);
    if (counts === undefined) {
      counts = new Map();
      // In standards mode `#id` matches the id exactly, and browsers answer it from their id
      // index; in quirks mode it ignores case, so every id of the root is counted instead.
      if (isQuirks(root) && typeof root.querySelectorAll === "function") {
        for (const e of Array.from(root.querySelectorAll("[id]"))) {
          const v = e.getAttribute("id") ?? "";
          counts.set(v, (counts.get(v) ?? 0) + 1);
        }
        counts.set(QUIRKS_COUNTED, 1);
      }
      this.#ids.set(root, counts);
    }
    let n = counts.get(id);
    if (n === undefined) {
      n = counts.has(QUIRKS_COUNTED) || typeof root.querySelectorAll !== "function" ? 0 : root.querySelectorAll(`#${id}`).length;
      counts.set(id, n);
    }
    return n;
  }
}

/** Key (not a CSS identifier, so never an id asked for) marking a root whose ids were all counted. */
const QUIRKS_COUNTED = " quirks";

function isQuirks(root: Document | ShadowRoot): boolean {
  const doc = root.nodeType === 9 ? (root as Document) : root.ownerDocument;
  return doc !== null && doc.compatMode === "BackCompat";
}

function segmentOf(el: Element, cache: CssPathCache): { segment: string; anchored: boolean } {
  const id = el.getAttribute("id");
  if (id !== null && CSS_IDENT.test(id) && cache.idCount(el, id) === 1) {
    return { segment: `#${cssEscape(id)}`, anchored: true };
  }
  const tag = el.localName;
  const parent = el.parentElement;
  if (parent === null || tag === "body") return { segment: tag, anchored: true };
  const { index, count } = cache.position(el, parent);
  return { segment: count > 1 ? `${tag}:nth-of-type(${index})` : tag, anchored: false };
}

/** A css path for `el` within its own root (document or shadow root). */
export function cssPathOf(el: Element, cache: CssPathCache = new CssPathCache()): string {
  const cached = cache.paths.get(el);
  if (cached !== undefined) return cached;
  const { segment, anchored } = segmentOf(el, cache);
  const parent = el.parentElement;
  const path = anchored || parent === null ? segment : `${cssPathOf(parent, cache)} > ${segment}`;
  cache.paths.set(el, path);
  return path;
}

/** CSS paths of the shadow hosts that contain `el`, outermost first. */
export function shadowHostPathOf(el: Element, cache: CssPathCache = new CssPathCache()): string[] {
  const hosts: string[] = [];
  let root = el.getRootNode();
  while (root instanceof ShadowRoot) {
    hosts.unshift(cssPathOf(root.host, cache));
    root = root.host.getRootNode();
  }
  return hosts;
}

/** Builds at most five locators in preference order. */
export function locatorsOf(input: LocatorInput): Locator[] {
  const out: Locator[] = [];
  const b = input.stringBytes;
  if (!input.redacted) {
    if (input.role !== undefined && input.role !== "presentation" && input.name !== undefined && input.name !== "") {
      out.push({ kind: "role", role: input.role, name: truncateUtf8(input.name, b) });
    }
    if (input.label !== undefined && input.label !== "") out.push({ kind: "label", value: truncateUtf8(input.label, b) });
  }
  if (input.testId !== undefined && input.testId !== "") out.push({ kind: "testId", value: truncateUtf8(input.testId, b) });
  if (!input.redacted) {
    if (input.placeholder !== undefined && input.placeholder !== "") {
      out.push({ kind: "placeholder", value: truncateUtf8(input.placeholder, b) });
    }
    const text = input.ownText;
    if (text !== undefined && text !== "" && text.length <= MAX_TEXT_LOCATOR_CHARS && !isFormControl(input.el)) {
      out.push({ kind: "text", value: text });
    }
  }
  const hosts = input.inShadow === false ? [] : shadowHostPathOf(input.el, input.cssCache);
  const value = cssPathOf(input.el, input.cssCache);
  const css: Locator = hosts.length > 0 ? { kind: "css", value, shadowHosts: hosts } : { kind: "css", value };
  if (out.length >= MAX_LOCATORS) out.length = MAX_LOCATORS - 1;
  out.push(css);
  return out;
}

function isFormControl(el: Element): boolean {
  const t = el.localName;
  return t === "input" || t === "textarea" || t === "select";
}

/** A css attribute selector for a test id (for callers that build queries). */
export function testIdSelector(testId: string): string {
  return `[data-testid=${attrValue(testId)}]`;
}
