//! Semantic description of one element: implicit/explicit role, a simplified accessible name,
//! its own text, and interaction state. Reads only what is rendered; never framework internals.
//! Secret control values and redacted content are never read.
import type { NodeState } from "../protocol";
import { isSecretControl, scrubSecrets, type RedactionRules } from "../privacy/redact";
import { collapseWhitespace, truncateUtf8 } from "../util/utf8";

const INPUT_ROLES: Record<string, string> = {
  button: "button",
  submit: "button",
  reset: "button",
  image: "button",
  checkbox: "checkbox",
  radio: "radio",
  range: "slider",
  number: "spinbutton",
  search: "searchbox",
  email: "textbox",
  tel: "textbox",
  text: "textbox",
  url: "textbox",
  password: "textbox",
  "": "textbox",
};

const TAG_ROLES: Record<string, string> = {
  button: "button",
  textarea: "textbox",
  nav: "navigation",
  main: "main",
  header: "banner",
  footer: "contentinfo",
  aside: "complementary",
  ul: "list",
  ol: "list",
  li: "listitem",
  table: "table",
  tr: "row",
  td: "cell",
  th: "columnheader",
  dialog: "dialog",
  option: "option",
  progress: "progressbar",
  summary: "button",
  h1: "heading",
  h2: "heading",
  h3: "heading",
  h4: "heading",
  h5: "heading",
  h6: "heading",
  hr: "separator",
  fieldset: "group",
  meter: "meter",
  output: "status",
  dl: "list",
};

/** Roles whose accessible name comes from their content. */
const NAME_FROM_CONTENT = new Set([
  "button",
  "link",
  "heading",
  "tab",
  "menuitem",
  "option",
  "cell",
  "columnheader",
  "checkbox",
  "radio",
  "switch",
  "treeitem",
  "tooltip",
  "listitem",
]);

/** The explicit or implicit ARIA role of `el`, if any. */
export function roleOf(el: Element): string | undefined {
  const explicit = el.getAttribute("role");
  if (explicit !== null && explicit.trim() !== "") return explicit.trim().split(/\s+/)[0];
  const tag = el.localName;
  if (tag === "a" || tag === "area") return el.hasAttribute("href") ? "link" : undefined;
  if (tag === "input") {
    const type = (el.getAttribute("type") ?? "").toLowerCase();
    if (type === "hidden") return undefined;
    return INPUT_ROLES[type] ?? "textbox";
  }
  if (tag === "select") return el.hasAttribute("multiple") || Number(el.getAttribute("size") ?? "0") > 1 ? "listbox" : "combobox";
  if (tag === "img") return el.getAttribute("alt") === "" ? "presentation" : "img";
  if (tag === "section") return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") ? "region" : undefined;
  if (tag === "form") return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") ? "form" : undefined;
  return TAG_ROLES[tag];
}

const SKIP_TEXT = new Set(["script", "style", "template", "noscript", "head", "meta", "link"]);

/** Visible-ish text content of `el`, skipping redacted subtrees, scripts and form values. */
export function textContentOf(el: Element, rules: RedactionRules, maxChars = 2048): string {
  const parts: string[] = [];
  let length = 0;
  const visit = (node: Node): void => {
    if (length > maxChars) return;
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const t = child.nodeValue ?? "";
        parts.push(t);
        length += t.length;
      } else if (child.nodeType === 1) {
        const c = child as Element;
        if (SKIP_TEXT.has(c.localName) || c.localName === "textarea") continue;
        if (rules.matches(c)) continue;
        visit(c);
      }
    }
  };
  if (!rules.matches(el)) visit(el);
  return collapseWhitespace(parts.join(" "));
}

/** The element's own direct text (text-node children only), whitespace-collapsed. */
export function ownTextOf(el: Element): string {
  let out: string | undefined;
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === 3) out = out === undefined ? (child.nodeValue ?? "") : `${out} ${child.nodeValue ?? ""}`;
  }
  return out === undefined ? "" : collapseWhitespace(out);
}

function byIds(el: Element, ids: string, rules: RedactionRules): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  const texts: string[] = [];
  for (const id of ids.split(/\s+/)) {
    if (id === "") continue;
    const target = typeof root.getElementById === "function" ? root.getElementById(id) : null;
    if (target !== null && !rules.covers(target)) texts.push(target.getAttribute("aria-label") ?? textContentOf(target, rules));
  }
  return collapseWhitespace(texts.join(" "));
}

/**
 * Labels of form controls, indexed once per root (document or shadow root) per snapshot:
 * `control.labels` re-scans the tree on every call, which is quadratic over a form-heavy page.
 */
export class LabelIndex {
  private readonly byRoot = new Map<Node, Map<Element, Element[]>>();

  /** Labels that label `control`. */
  labelsOf(control: Element): Element[] {
    const root = control.getRootNode();
    let index = this.byRoot.get(root);
    if (index === undefined) {
      index = new Map();
      const scope = root as Document | ShadowRoot;
      if (typeof scope.querySelectorAll === "function") {
        for (const label of Array.from(scope.querySelectorAll("label"))) {
          const target = (label as HTMLLabelElement).control;
          if (target === null || target === undefined) continue;
          const list = index.get(target);
          if (list === undefined) index.set(target, [label]);
          else list.push(label);
        }
      }
      this.byRoot.set(root, index);
    }
    return index.get(control) ?? [];
  }
}

/** Text of the labels associated with a form control. */
export function labelTextOf(el: Element, rules: RedactionRules, labels?: LabelIndex): string {
  const list = labels !== undefined ? labels.labelsOf(el) : Array.from((el as HTMLInputElement).labels ?? []);
  if (list.length === 0) return "";
  const texts: string[] = [];
  for (const label of list) if (!rules.covers(label)) texts.push(textContentOf(label, rules));
  return collapseWhitespace(texts.join(" "));
}

/**
 * Elements whose accessible name comes from their labels (labelable, except button, whose name
 * comes from content). The record cache rebuilds these when a label changed (see `recordCache.ts`).
 */
export const LABELLED_TAGS: ReadonlySet<string> = new Set(["input", "select", "textarea", "meter", "progress", "output"]);

/** A simplified accessible name (aria-labelledby, aria-label, labels, alt, content, title, placeholder). */
export function accessibleNameOf(el: Element, role: string | undefined, rules: RedactionRules, labels?: LabelIndex): string {
  const labelledBy = el.getAttribute("aria-labelledby");
  if (labelledBy !== null) {
    const t = byIds(el, labelledBy, rules);
    if (t !== "") return t;
  }
  const aria = el.getAttribute("aria-label");
  if (aria !== null && aria.trim() !== "") return collapseWhitespace(aria);
  const tag = el.localName;
  if (LABELLED_TAGS.has(tag)) {
    const type = (el.getAttribute("type") ?? "").toLowerCase();
    if (tag === "input" && (type === "submit" || type === "reset" || type === "button")) {
      const v = el.getAttribute("value");
      if (v !== null && v.trim() !== "") return collapseWhitespace(v);
      return type === "reset" ? "Reset" : type === "submit" ? "Submit" : "";
    }
    if (tag === "input" && type === "image") return collapseWhitespace(el.getAttribute("alt") ?? "");
    const l = labelTextOf(el, rules, labels);
    if (l !== "") return l;
  }
  if (tag === "img" || tag === "area") {
    const alt = el.getAttribute("alt");
    if (alt !== null && alt.trim() !== "") return collapseWhitespace(alt);
  }
  if (tag === "fieldset") {
    const legend = el.querySelector(":scope > legend");
    if (legend !== null) return textContentOf(legend, rules);
  }
  if (tag === "table") {
    const caption = el.querySelector(":scope > caption");
    if (caption !== null) return textContentOf(caption, rules);
  }
  if (role !== undefined && NAME_FROM_CONTENT.has(role)) {
    const t = textContentOf(el, rules, 512);
    if (t !== "") return t;
  }
  const title = el.getAttribute("title");
  if (title !== null && title.trim() !== "") return collapseWhitespace(title);
  const placeholder = el.getAttribute("placeholder");
  if (placeholder !== null && placeholder.trim() !== "") return collapseWhitespace(placeholder);
  return "";
}

function ariaBool(el: Element, name: string): boolean | "mixed" | undefined {
  const v = el.getAttribute(name);
  if (v === null) return undefined;
  if (v === "mixed") return "mixed";
  return v === "true";
}

/** Elements whose state can come from properties rather than attributes. */
const STATEFUL_TAGS = new Set(["input", "textarea", "select", "option", "button", "fieldset", "optgroup", "details", "h1", "h2", "h3", "h4", "h5", "h6"]);

/** Elements with `disabled`, `required` or `readOnly` properties in HTML. */
const FORM_PROPERTY_TAGS = new Set(["button", "fieldset", "input", "optgroup", "option", "select", "textarea"]);

/** Interaction state of `el`. `visible` is computed by the caller from layout. */
export function stateOf(el: Element, visible: boolean, focused: boolean, stringBytes: number): NodeState {
  const state: NodeState = { visible };
  const tag = el.localName;
  // Fast path: a plain element without attributes has no state beyond visibility and focus.
  if (!el.hasAttributes() && !STATEFUL_TAGS.has(tag)) {
    if (focused) state.focused = true;
    return state;
  }
  // Properties are read only where HTML defines them (or a custom element may): an expando on
  // any other element is script state, not rendered state.
  const props = FORM_PROPERTY_TAGS.has(tag) || tag.includes("-");
  if ((props && (el as HTMLButtonElement).disabled === true) || el.getAttribute("aria-disabled") === "true") state.disabled = true;
  if (tag === "input") {
    const input = el as HTMLInputElement;
    if (input.type === "checkbox" || input.type === "radio") state.checked = input.indeterminate ? "mixed" : input.checked;
  }
  if (state.checked === undefined) {
    const c = ariaBool(el, "aria-checked");
    if (c !== undefined) state.checked = c;
  }
  if ((tag === "option" && (el as HTMLOptionElement).selected) || el.getAttribute("aria-selected") === "true") state.selected = true;
  const expanded = ariaBool(el, "aria-expanded");
  if (expanded !== undefined && expanded !== "mixed") state.expanded = expanded;
  else if (tag === "details") state.expanded = (el as HTMLDetailsElement).open;
  const pressed = ariaBool(el, "aria-pressed");
  if (pressed !== undefined) state.pressed = pressed;
  if (focused) state.focused = true;
  if ((props && (el as HTMLInputElement).required === true) || el.getAttribute("aria-required") === "true") state.required = true;
  if (el.getAttribute("aria-invalid") === "true") state.invalid = true;
  if ((props && (el as HTMLInputElement).readOnly === true) || el.getAttribute("aria-readonly") === "true") state.readonly = true;
  if (tag === "input" || tag === "textarea" || tag === "select") {
    const type = (el.getAttribute("type") ?? "").toLowerCase();
    const isToggle = tag === "input" && (type === "checkbox" || type === "radio" || type === "button" || type === "submit" || type === "reset" || type === "image" || type === "file");
    if (!isToggle) {
      if (isSecretControl(el)) {
        // Only the fact that a value exists; never its content or length.
        if ((el as HTMLInputElement).value !== "") state.valueRedacted = true;
      } else {
        const value = (el as HTMLInputElement).value;
        if (value !== "") state.value = truncateUtf8(scrubSecrets(value), stringBytes);
      }
    }
  }
  if (/^h[1-6]$/.test(tag)) state.level = Number(tag[1]);
  else {
    const level = el.getAttribute("aria-level");
    if (level !== null && /^\d+$/.test(level)) state.level = Number(level);
  }
  return state;
}
