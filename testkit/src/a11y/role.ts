//! ARIA roles: the implicit role of each HTML element and the explicit `role` attribute, the
//! first token winning. `none`/`presentation` give no role. The driver's resolver and the Test Kit
//! snapshot both call these, so a `role(...)` locator means the same thing to both.
import { inputType, parentComposed } from "./dom";

const SECTIONING = new Set(["article", "aside", "main", "nav", "section"]);

function inSectioning(el: Element): boolean {
  for (let n = parentComposed(el); n !== null; n = parentComposed(n)) {
    if (SECTIONING.has(n.localName)) return true;
  }
  return false;
}

const INPUT_ROLES: Readonly<Record<string, string>> = {
  button: "button",
  submit: "button",
  reset: "button",
  image: "button",
  checkbox: "checkbox",
  radio: "radio",
  range: "slider",
  number: "spinbutton",
};

const TEXT_TYPES = new Set(["", "text", "email", "tel", "url", "password"]);

function inputRole(el: Element): string | undefined {
  const t = inputType(el);
  const fixed = INPUT_ROLES[t];
  if (fixed !== undefined) return fixed;
  if (t === "hidden") return undefined;
  if (el.hasAttribute("list")) return "combobox";
  if (t === "search") return "searchbox";
  return TEXT_TYPES.has(t) ? "textbox" : undefined;
}

/** Roles that depend only on the tag. */
const TAG_ROLES: Readonly<Record<string, string>> = {
  button: "button",
  textarea: "textbox",
  option: "option",
  optgroup: "group",
  h1: "heading",
  h2: "heading",
  h3: "heading",
  h4: "heading",
  h5: "heading",
  h6: "heading",
  ul: "list",
  ol: "list",
  menu: "list",
  li: "listitem",
  nav: "navigation",
  main: "main",
  aside: "complementary",
  article: "article",
  dialog: "dialog",
  table: "table",
  tr: "row",
  td: "cell",
  th: "columnheader",
  thead: "rowgroup",
  tbody: "rowgroup",
  tfoot: "rowgroup",
  fieldset: "group",
  details: "group",
  progress: "progressbar",
  meter: "meter",
  output: "status",
  hr: "separator",
  p: "paragraph",
  figure: "figure",
  blockquote: "blockquote",
  form: "form",
};

/** The role HTML gives `el` without a `role` attribute, if any. */
export function implicitRole(el: Element): string | undefined {
  const tag = el.localName;
  switch (tag) {
    case "a":
    case "area":
      return el.hasAttribute("href") ? "link" : undefined;
    case "input":
      return inputRole(el);
    case "select": {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? "listbox" : "combobox";
    }
    case "img":
      return el.getAttribute("alt") === "" ? undefined : "img";
    case "header":
      return inSectioning(el) ? undefined : "banner";
    case "footer":
      return inSectioning(el) ? undefined : "contentinfo";
    case "section":
      return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") ? "region" : undefined;
    default:
      return TAG_ROLES[tag];
  }
}

const NATIVELY_FOCUSABLE = new Set(["button", "input", "select", "textarea"]);

/** Focusable elements keep their implicit role under `none`/`presentation` (as Chromium does). */
function focusable(el: Element): boolean {
  if (el.hasAttribute("tabindex")) return true;
  const tag = el.localName;
  if (NATIVELY_FOCUSABLE.has(tag)) return !el.hasAttribute("disabled");
  return (tag === "a" || tag === "area") && el.hasAttribute("href");
}

/**
 * The role of `el`: the first token of `role`, else its implicit role; `none`/`presentation` give
 * none, except on a focusable element, which keeps its implicit role.
 */
export function roleOf(el: Element): string | undefined {
  const explicit = (el.getAttribute("role") ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  if (explicit === "none" || explicit === "presentation") return focusable(el) ? implicitRole(el) : undefined;
  if (explicit !== "") return explicit;
  return implicitRole(el);
}
