/**
 * The Layout Mode form the overlay mounts in its panel: placement vs rearrange, the catalog
 * combobox with free-form entry, canvas, optional page purpose, and buttons that ask the overlay
 * to pick the destination region or the original node. Every change is reported through
 * `onChange` as a complete, validated `LayoutPlacement`/`LayoutRearrange`, or `null` while it is
 * incomplete or invalid. The form only fills the structured layout target: it never reads or
 * writes a finding's instruction, and it never touches host nodes.
 * @module
 */
import type { Rect } from "../../protocol";
import type { LayoutPlacement, LayoutRearrange } from "../../repair/types";
import { catalogEntry, catalogName } from "./catalog";
import { createCombobox } from "./combobox";
import { createPreview } from "./preview";
import { componentTypeOf, type ComponentChoice } from "./search";
import { layoutTranslator, type LayoutLocale, type LayoutStringKey, type LayoutTranslate } from "./strings";
import { buildPlacement, buildRearrange, checkRect, MAX_LAYOUT_TEXT_CHARS, type LayoutField, type LayoutIssue, type LayoutResult, type ViewportSize } from "./target";
import { LAYOUT_CSS } from "./styles";

/** The layout target the editor reports. */
export type LayoutTarget = LayoutPlacement | LayoutRearrange;

/** What the overlay passes to {@link mountLayoutEditor}. */
export interface LayoutEditorOptions {
  /** Display language of the form and the catalog names. */
  locale: LayoutLocale;
  /** The overlay's string lookup (`layout.` keys; placeholders may be left unfilled). */
  strings: (key: string) => string;
  /** Receives the complete target after each change, or `null` while it is incomplete or invalid. */
  onChange: (layout: LayoutTarget | null) => void;
  /** Lets the reviewer draw the destination on the page; `null` when cancelled. Viewport CSS px. */
  pickRegion: () => Promise<Rect | null>;
  /** Lets the reviewer pick the element to move; `null` when cancelled. Viewport CSS px. */
  pickNode: () => Promise<{ nodeId: string; region: Rect } | null>;
  /**
   * Says something to assistive technology through the overlay's one announcer: a second live
   * region inside the overlay would make screen readers read some messages twice.
   */
  announce: (message: string) => void;
}

/** A mounted editor. */
export interface LayoutEditor {
  /** Removes the form and its preview; pending picks are ignored when they resolve. */
  destroy(): void;
}

let editors = 0;

function viewportOf(doc: Document): ViewportSize {
  const root = doc.documentElement;
  const win = doc.defaultView;
  return { width: root.clientWidth || (win?.innerWidth ?? 0), height: root.clientHeight || (win?.innerHeight ?? 0) };
}

function radioGroup(doc: Document, name: string, legend: string, choices: ReadonlyArray<{ value: string; label: string }>, checked: string): { fieldset: HTMLFieldSetElement; inputs: HTMLInputElement[] } {
  const fieldset = doc.createElement("fieldset");
  fieldset.className = "a3s-layout-choices";
  const legendEl = doc.createElement("legend");
  legendEl.textContent = legend;
  fieldset.append(legendEl);
  const inputs = choices.map(({ value, label }) => {
    const wrap = doc.createElement("label");
    const input = doc.createElement("input");
    input.type = "radio";
    input.name = name;
    input.value = value;
    input.checked = value === checked;
    wrap.append(input, " ", label);
    fieldset.append(wrap);
    return input;
  });
  return { fieldset, inputs };
}

function paragraph(doc: Document, id: string, className: string): HTMLParagraphElement {
  const p = doc.createElement("p");
  p.id = id;
  p.className = className;
  return p;
}

function formatRect(t: LayoutTranslate, r: Rect): string {
  return t("layout.rect", { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) });
}

/**
 * Renders the Layout Mode form into `container` (inside the overlay's shadow root). The preview
 * layer (fixed, z-index 2147483646) goes first into the container's shadow root when it has one,
 * else into the container, so overlay UI at z-index 2147483647 stays above it.
 */
export function mountLayoutEditor(container: HTMLElement, opts: LayoutEditorOptions): LayoutEditor {
  const doc = container.ownerDocument;
  const t = layoutTranslator(opts.strings);
  const id = `a3s-layout-${++editors}`;
  let destroyed = false;

  const state: {
    mode: "placement" | "rearrange";
    choice: ComponentChoice | null;
    canvas: "page" | "wireframe";
    purpose: string;
    destination?: Rect;
    original?: { nodeId: string; region: Rect };
  } = { mode: "placement", choice: null, canvas: "page", purpose: "" };

  const root = doc.createElement("section");
  root.className = "a3s-layout";
  root.setAttribute("aria-labelledby", `${id}-title`);
  const style = doc.createElement("style");
  style.textContent = LAYOUT_CSS;
  const title = doc.createElement("h3");
  title.id = `${id}-title`;
  title.className = "a3s-layout-title";
  title.textContent = t("layout.title");

  const announce = opts.announce;

  const kind = radioGroup(doc, `${id}-kind`, t("layout.kind.legend"), [
    { value: "placement", label: t("layout.kind.placement") },
    { value: "rearrange", label: t("layout.kind.rearrange") },
  ], state.mode);

  // Placement fields.
  const placement = doc.createElement("div");
  placement.className = "a3s-layout-section";
  const combo = createCombobox({ doc, idPrefix: id, locale: opts.locale, t, announce, onChoice: (c) => {
    state.choice = c;
    update();
  } });
  // Characters are checked on save; `maxLength` counts UTF-16 units (see MAX_LAYOUT_TEXT_CHARS).
  combo.input.maxLength = 2 * MAX_LAYOUT_TEXT_CHARS;
  const typeError = paragraph(doc, `${id}-type-error`, "a3s-layout-error");
  combo.input.setAttribute("aria-describedby", `${combo.describedBy} ${typeError.id}`);
  combo.root.append(typeError);
  const canvas = radioGroup(doc, `${id}-canvas`, t("layout.canvas.legend"), [
    { value: "page", label: t("layout.canvas.page") },
    { value: "wireframe", label: t("layout.canvas.wireframe") },
  ], state.canvas);
  const purposeWrap = doc.createElement("div");
  purposeWrap.className = "a3s-layout-field";
  const purposeLabel = doc.createElement("label");
  purposeLabel.htmlFor = `${id}-purpose`;
  purposeLabel.textContent = t("layout.purpose.label");
  const purpose = doc.createElement("input");
  purpose.id = `${id}-purpose`;
  purpose.type = "text";
  purpose.maxLength = 2 * MAX_LAYOUT_TEXT_CHARS;
  const purposeError = paragraph(doc, `${id}-purpose-error`, "a3s-layout-error");
  purpose.setAttribute("aria-describedby", purposeError.id);
  purposeWrap.append(purposeLabel, purpose, purposeError);
  placement.append(combo.root, canvas.fieldset, purposeWrap);

  // Rearrange fields.
  const rearrange = doc.createElement("div");
  rearrange.className = "a3s-layout-section";
  rearrange.hidden = true;
  const pickOriginal = doc.createElement("button");
  pickOriginal.type = "button";
  pickOriginal.textContent = t("layout.original.pick");
  const originalValue = paragraph(doc, `${id}-original`, "a3s-layout-value");
  const originalError = paragraph(doc, `${id}-original-error`, "a3s-layout-error");
  pickOriginal.setAttribute("aria-describedby", `${originalValue.id} ${originalError.id}`);
  rearrange.append(pickOriginal, originalValue, originalError);

  // Destination (both kinds).
  const destinationWrap = doc.createElement("div");
  destinationWrap.className = "a3s-layout-section";
  const pickDestination = doc.createElement("button");
  pickDestination.type = "button";
  pickDestination.textContent = t("layout.destination.pick");
  const destinationValue = paragraph(doc, `${id}-destination`, "a3s-layout-value");
  const destinationError = paragraph(doc, `${id}-destination-error`, "a3s-layout-error");
  pickDestination.setAttribute("aria-describedby", `${destinationValue.id} ${destinationError.id}`);
  destinationWrap.append(pickDestination, destinationValue, destinationError);

  root.append(style, title, kind.fieldset, placement, rearrange, destinationWrap);
  container.append(root);

  const rootNode = container.getRootNode();
  const previewParent = rootNode.nodeType === 11 && "host" in rootNode ? rootNode : container;
  const preview = createPreview(doc, previewParent);

  const errors: Partial<Record<LayoutField, HTMLElement>> = {
    componentType: typeError,
    purpose: purposeError,
    destination: destinationError,
    originalRegion: originalError,
  };
  const controls: Partial<Record<LayoutField, HTMLElement>> = { componentType: combo.input, purpose };

  let last = "null";
  function emit(value: LayoutTarget | null): void {
    const key = JSON.stringify(value);
    if (key === last) return;
    last = key;
    if (value !== null) announce(t("layout.ready"));
    opts.onChange(value);
  }

  function showIssues(issues: readonly LayoutIssue[]): void {
    for (const [field, el] of Object.entries(errors) as Array<[LayoutField, HTMLElement]>) {
      const issue = issues.find((i) => i.field === field);
      el.textContent = issue === undefined ? "" : t(`layout.issue.${issue.code}` as LayoutStringKey);
      const control = controls[field];
      if (control !== undefined) {
        if (issue === undefined) control.removeAttribute("aria-invalid");
        else control.setAttribute("aria-invalid", "true");
      }
    }
  }

  function choiceLabel(): string {
    const c = state.choice;
    if (c === null) return "";
    if (c.kind === "project") return c.name;
    const entry = catalogEntry(c.id);
    return entry === undefined ? c.id : catalogName(entry, opts.locale);
  }

  function update(): void {
    if (destroyed) return;
    placement.hidden = state.mode !== "placement";
    rearrange.hidden = state.mode !== "rearrange";
    destinationValue.textContent = state.destination === undefined ? t("layout.destination.none") : t("layout.destination.value", { rect: formatRect(t, state.destination) });
    originalValue.textContent = state.original === undefined ? t("layout.original.none") : t("layout.original.value", { node: state.original.nodeId, rect: formatRect(t, state.original.region) });
    const viewport = viewportOf(doc);
    const { issues, value } = validate(viewport);
    preview.update(
      state.mode === "placement"
        ? { canvas: state.canvas, ...(state.destination ? { destination: state.destination } : {}), label: choiceLabel() }
        : { canvas: "page", ...(state.destination ? { destination: state.destination } : {}), ...(state.original ? { original: state.original.region } : {}) },
    );
    showIssues(issues);
    emit(value);
  }

  /** The target when complete and valid; issues only for what the reviewer has already picked. */
  function validate(viewport: ViewportSize): { issues: LayoutIssue[]; value: LayoutTarget | null } {
    const result = (r: LayoutResult<LayoutTarget>) => (r.ok ? { issues: [], value: r.value } : { issues: r.issues, value: null });
    if (state.mode === "placement") {
      if (state.destination === undefined) return { issues: [], value: null };
      const componentType = state.choice === null ? "" : componentTypeOf(state.choice);
      const componentSource = state.choice?.kind ?? "project";
      return result(buildPlacement({ componentType, componentSource, canvas: state.canvas, purpose: state.purpose, destination: state.destination }, viewport));
    }
    const { original, destination } = state;
    if (original !== undefined && destination !== undefined) {
      return result(buildRearrange({ originalRegion: original.region, nodeId: original.nodeId, destination }, viewport));
    }
    // Check the half that is there, so a bad pick is reported at once.
    const issues = [
      original === undefined ? undefined : checkRect(original.region, viewport, "originalRegion", "overlap"),
      destination === undefined ? undefined : checkRect(destination, viewport, "destination", "contain"),
    ].filter((i): i is LayoutIssue => i !== undefined);
    return { issues, value: null };
  }

  async function runPick<T>(button: HTMLButtonElement, pick: () => Promise<T | null>, apply: (value: T) => void): Promise<void> {
    if (button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    announce(t("layout.picking"));
    let value: T | null = null;
    try {
      value = await pick();
    } catch {
      value = null; // a failed pick counts as cancelled; the overlay reports its own errors
    }
    if (destroyed) return;
    button.removeAttribute("aria-disabled");
    if (value === null) announce(t("layout.pick.cancelled"));
    else apply(value);
    update();
    if (button.isConnected) button.focus();
  }

  const onKind = (event: Event) => {
    const input = event.target as HTMLInputElement;
    state.mode = input.value === "rearrange" ? "rearrange" : "placement";
    update();
  };
  const onCanvas = (event: Event) => {
    const input = event.target as HTMLInputElement;
    state.canvas = input.value === "wireframe" ? "wireframe" : "page";
    update();
  };
  const onPurpose = () => {
    state.purpose = purpose.value;
    update();
  };
  const onPickDestination = () =>
    void runPick(pickDestination, opts.pickRegion, (rect) => {
      state.destination = { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    });
  const onPickOriginal = () =>
    void runPick(pickOriginal, opts.pickNode, (picked) => {
      state.original = { nodeId: picked.nodeId, region: { x: picked.region.x, y: picked.region.y, width: picked.region.width, height: picked.region.height } };
    });

  for (const input of kind.inputs) input.addEventListener("change", onKind);
  for (const input of canvas.inputs) input.addEventListener("change", onCanvas);
  purpose.addEventListener("input", onPurpose);
  pickDestination.addEventListener("click", onPickDestination);
  pickOriginal.addEventListener("click", onPickOriginal);
  update();

  return {
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const input of kind.inputs) input.removeEventListener("change", onKind);
      for (const input of canvas.inputs) input.removeEventListener("change", onCanvas);
      purpose.removeEventListener("input", onPurpose);
      pickDestination.removeEventListener("click", onPickDestination);
      pickOriginal.removeEventListener("click", onPickOriginal);
      combo.destroy();
      preview.destroy();
      root.remove();
    },
  };
}
