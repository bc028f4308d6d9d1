//! An element's own facts for the walk (redaction, role, test id, own text, tabindex or
//! contenteditable), memoized between projections with change marks.
//
// The facts come from the element's attributes and text children only, so they stay valid while
// no mark reaches the element (a self mark: its attributes or text children changed; a subtree
// mark: an ancestor's attribute, with redaction selectors, or its position). Computed style is
// never part of them (it changes without mutations).
import type { RedactionRules } from "../privacy/redact";
import { ownTextOf, roleOf } from "./describe";

/** What the walk reads from an element besides computed style. */
export interface OwnFacts {
  redacted: boolean;
  role: string | undefined;
  testId: string | undefined;
  ownText: string;
  /** A tabindex other than -1, or contenteditable. */
  attributeInteresting: boolean;
}

/** Reads the facts of `el` (whose localName is `tag`). */
export function readOwnFacts(el: Element, tag: string, rules: RedactionRules): OwnFacts {
  const redacted = rules.matches(el);
  const hasAttributes = el.hasAttributes();
  const testIdAttr = hasAttributes ? el.getAttribute("data-testid") : null;
  return {
    redacted,
    role: redacted ? undefined : roleOf(el),
    testId: testIdAttr !== null && testIdAttr !== "" ? testIdAttr : undefined,
    ownText: redacted || tag === "textarea" ? "" : ownTextOf(el),
    attributeInteresting: hasAttributes && (isFocusableByAttribute(el) || isEditable(el)),
  };
}

function isFocusableByAttribute(el: Element): boolean {
  const v = el.getAttribute("tabindex");
  return v !== null && v !== "-1";
}

function isEditable(el: Element): boolean {
  const v = el.getAttribute("contenteditable");
  return v !== null && v !== "false";
}

/** Facts memoized per element with the stamp they were read at. */
export class OwnFactsMemo {
  readonly #byElement = new WeakMap<Element, { stamp: number; facts: OwnFacts }>();

  /**
   * The facts of `el`: memoized ones when read at a stamp ≥ `mark` (the highest change mark
   * reaching the element) and ≥ `resetAt`, else read now and memoized at `stamp`.
   */
  factsOf(el: Element, tag: string, rules: RedactionRules, mark: number, resetAt: number, stamp: number): OwnFacts {
    const memo = this.#byElement.get(el);
    if (memo !== undefined && memo.stamp >= mark && memo.stamp >= resetAt) return memo.facts;
    const facts = readOwnFacts(el, tag, rules);
    this.#byElement.set(el, { stamp, facts });
    return facts;
  }
}
