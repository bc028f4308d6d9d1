/**
 * The component-type field of Layout Mode: an editable ARIA combobox with a listbox of catalog
 * types (list autocomplete, manual selection). Typing filters the catalog in both languages;
 * ArrowDown/ArrowUp move through the suggestions, Alt+ArrowDown opens the list, Enter picks the
 * active one, Escape closes an open list (and is kept from the overlay only then), Tab leaves.
 * Whatever is typed without picking is a project component name and is reported verbatim.
 * Plain DOM, so it runs inside the overlay's shadow root.
 * @module
 */
import { catalogEntry, catalogName } from "./catalog";
import { searchCatalog, type CatalogHit, type ComponentChoice } from "./search";
import type { LayoutLocale, LayoutTranslate } from "./strings";

/** What the combobox needs from the editor. */
export interface ComboboxOptions {
  /** Document that owns the editor (the overlay's). */
  doc: Document;
  /** Prefix for element ids, unique per editor. */
  idPrefix: string;
  locale: LayoutLocale;
  t: LayoutTranslate;
  /** Called with the new choice whenever it changes (`null` when the field is empty). */
  onChoice: (choice: ComponentChoice | null) => void;
  /** Says something through the editor's live region. */
  announce: (message: string) => void;
}

/** A mounted combobox. */
export interface Combobox {
  /** The wrapper holding label, input, hint and listbox. */
  root: HTMLElement;
  /** The text input carrying `role="combobox"`. */
  input: HTMLInputElement;
  /** Ids of elements that describe the field (hint, choice line); errors are added by the editor. */
  describedBy: string;
  /** Removes listeners. */
  destroy(): void;
}

/** Builds the component-type combobox. */
export function createCombobox(opts: ComboboxOptions): Combobox {
  const { doc, idPrefix, locale, t } = opts;
  const other: LayoutLocale = locale === "zh-CN" ? "en" : "zh-CN";
  const root = doc.createElement("div");
  root.className = "a3s-layout-field a3s-layout-combobox";

  const label = doc.createElement("label");
  label.id = `${idPrefix}-type-label`;
  label.htmlFor = `${idPrefix}-type`;
  label.textContent = t("layout.component.label");

  const input = doc.createElement("input");
  input.id = `${idPrefix}-type`;
  input.type = "text";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", `${idPrefix}-types`);

  const hint = doc.createElement("p");
  hint.id = `${idPrefix}-type-hint`;
  hint.className = "a3s-layout-hint";
  hint.textContent = t("layout.component.hint");

  const chosen = doc.createElement("p");
  chosen.id = `${idPrefix}-type-chosen`;
  chosen.className = "a3s-layout-value";

  const listbox = doc.createElement("ul");
  listbox.id = `${idPrefix}-types`;
  listbox.className = "a3s-layout-listbox";
  listbox.setAttribute("role", "listbox");
  listbox.setAttribute("aria-labelledby", label.id);
  listbox.hidden = true;

  const describedBy = `${hint.id} ${chosen.id}`;
  input.setAttribute("aria-describedby", describedBy);
  root.append(label, input, listbox, hint, chosen);

  let hits: CatalogHit[] = [];
  let active = -1;
  let choice: ComponentChoice | null = null;

  const optionId = (i: number) => `${idPrefix}-type-option-${i}`;

  function showChoice(): void {
    if (choice === null) chosen.textContent = "";
    else if (choice.kind === "catalog") {
      const entry = catalogEntry(choice.id);
      chosen.textContent = t("layout.component.catalog", { name: entry === undefined ? choice.id : catalogName(entry, locale) });
    } else chosen.textContent = t("layout.component.project", { name: choice.name });
  }

  function setChoice(next: ComponentChoice | null): void {
    const same = next === choice || (next !== null && choice !== null && JSON.stringify(next) === JSON.stringify(choice));
    choice = next;
    showChoice();
    if (!same) opts.onChoice(next);
  }

  function renderOptions(): void {
    listbox.replaceChildren(
      ...hits.map((hit, i) => {
        const li = doc.createElement("li");
        li.id = optionId(i);
        li.className = "a3s-layout-option";
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", i === active ? "true" : "false");
        li.dataset.catalogId = hit.entry.id;
        const main = doc.createElement("span");
        main.lang = locale;
        main.textContent = catalogName(hit.entry, locale);
        const aside = doc.createElement("span");
        aside.lang = other;
        aside.className = "a3s-layout-option-aside";
        aside.textContent = catalogName(hit.entry, other);
        li.append(main, " ", aside);
        return li;
      }),
    );
  }

  function setActive(index: number): void {
    const prev = listbox.children.item(active);
    prev?.setAttribute("aria-selected", "false");
    active = index;
    const next = listbox.children.item(active);
    if (next === null) {
      input.removeAttribute("aria-activedescendant");
      return;
    }
    next.setAttribute("aria-selected", "true");
    input.setAttribute("aria-activedescendant", next.id);
    // jsdom has no scrollIntoView; real browsers keep the active option visible.
    if (typeof next.scrollIntoView === "function") next.scrollIntoView({ block: "nearest" });
  }

  function open(): void {
    hits = searchCatalog(input.value, locale);
    active = -1;
    renderOptions();
    input.removeAttribute("aria-activedescendant");
    const isOpen = hits.length > 0;
    listbox.hidden = !isOpen;
    input.setAttribute("aria-expanded", isOpen ? "true" : "false");
    opts.announce(isOpen ? t("layout.component.count", { count: hits.length }) : t("layout.component.none"));
  }

  function close(): void {
    listbox.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  const isOpen = () => !listbox.hidden;

  function pick(index: number): void {
    const hit = hits[index];
    if (hit === undefined) return;
    input.value = catalogName(hit.entry, locale);
    close();
    setChoice({ kind: "catalog", id: hit.entry.id });
    opts.announce(chosen.textContent ?? "");
  }

  const onInput = () => {
    // Anything typed is a project name until a catalog entry is picked; kept exactly as typed.
    setChoice(input.value.trim() === "" ? null : { kind: "project", name: input.value });
    open();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return; // an IME (e.g. pinyin) is still composing: its keys are its own
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!isOpen()) open();
        if (!event.altKey && hits.length > 0) setActive((active + 1) % hits.length);
        return;
      case "ArrowUp":
        event.preventDefault();
        if (!isOpen()) open();
        if (hits.length > 0) setActive(active <= 0 ? hits.length - 1 : active - 1);
        return;
      case "Enter":
        if (isOpen() && active >= 0) {
          event.preventDefault();
          event.stopPropagation();
          pick(active);
        }
        return;
      case "Escape":
        if (isOpen()) {
          // Closing the list is this Escape's whole job; the overlay must not also cancel.
          event.preventDefault();
          event.stopPropagation();
          close();
        }
        return;
      case "Tab":
        close();
        return;
      default:
        return;
    }
  };

  const onOptionDown = (event: MouseEvent) => event.preventDefault(); // keep focus in the input
  const onOptionClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target.closest("[role=option]") : null;
    if (target === null) return;
    const index = Array.prototype.indexOf.call(listbox.children, target) as number;
    pick(index);
    input.focus();
  };
  const onFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget;
    if (!(next instanceof Node) || !root.contains(next)) close();
  };

  input.addEventListener("input", onInput);
  input.addEventListener("keydown", onKeyDown);
  listbox.addEventListener("mousedown", onOptionDown);
  listbox.addEventListener("click", onOptionClick);
  root.addEventListener("focusout", onFocusOut);

  return {
    root,
    input,
    describedBy,
    destroy() {
      input.removeEventListener("input", onInput);
      input.removeEventListener("keydown", onKeyDown);
      listbox.removeEventListener("mousedown", onOptionDown);
      listbox.removeEventListener("click", onOptionClick);
      root.removeEventListener("focusout", onFocusOut);
    },
  };
}
