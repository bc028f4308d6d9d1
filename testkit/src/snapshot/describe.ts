//! Semantic description of one element: role and accessible name (the shared computation in
//! `../a11y`, which the driver runs too), its own text, and interaction state. Reads only what is rendered; never framework internals.
//! Secret control values and redacted content are never read.
import type { NodeState } from "../protocol";
import { isSecretControl, scrubSecrets, type RedactionRules } from "../privacy/redact";
import { collapseWhitespace, truncateUtf8 } from "../util/utf8";
import { accName, type AccessibleName, type NameOptions } from "../a11y/name";

/** The explicit or implicit ARIA role of `el` (none for `none`/`presentation`): the shared computation. */
export { roleOf } from "../a11y/role";

/** The element's own direct text (text-node children only), whitespace-collapsed. */
export function ownTextOf(el: Element): string {
  let out: string | undefined;
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === 3) out = out === undefined ? (child.nodeValue ?? "") : `${out} ${child.nodeValue ?? ""}`;
  }
  return out === undefined ? "" : collapseWhitespace(out);
}

/**
 * Labels of form controls, indexed once per root (document or shadow root) per snapshot:
 * `control.labels` re-scans the tree on every call, which is quadratic over a form-heavy page.
 */
export class LabelIndex {
  readonly #byRoot = new Map<Node, Map<Element, Element[]>>();

  /** Labels that label `control`. */
  labelsOf(control: Element): Element[] {
    const root = control.getRootNode();
    let index = this.#byRoot.get(root);
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
      this.#byRoot.set(root, index);
    }
    return index.get(control) ?? [];
  }
}

/**
 * Elements whose accessible name can come from their labels. The record cache rebuilds these when
 * a label changed (see `recordCache.ts`).
 */
export { LABELLED_TAGS } from "../a11y/name";

/** Embedded control values stay out of names: they change without mutations and may be secret. */
const noValue = (): string => "";

/**
 * The accessible name of `el` and its source, by the one computation the driver also runs
 * (`../a11y`); redacted subtrees and embedded control values are never read (a deliberate
 * difference from the driver, recorded in the a11y corpus), and `labels` saves re-scanning.
 */
export function accessibleNameOf(el: Element, rules: RedactionRules, labels?: LabelIndex): AccessibleName {
  const opts: NameOptions = { excluded: (e) => rules.matches(e), excludedTree: (e) => rules.covers(e), embeddedValue: noValue };
  if (labels !== undefined) opts.labelsOf = (control) => labels.labelsOf(control);
  return accName(el, opts);
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
