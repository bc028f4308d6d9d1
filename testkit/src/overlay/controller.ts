/**
 * The overlay's controller: joins the pure state machine to the shadow-root DOM. It routes keys
 * (letters only when focus is not in an editable control), turns pointer and keyboard marks into
 * targets, keeps drafts (saving never queues), sends one finding or the visible-order batch
 * through `bridge.submitRepair`, mirrors statuses and action outcomes (`bridge.listRepairs`,
 * `bridge.listRepairActions`) whenever `bridge.subscribeRepairs` reports a change — no timer —
 * sends human actions through `bridge.submitRepairAction`, and mounts the Layout Mode editor.
 * It keeps the panel off what the reviewer marks: docked left, right or bottom and collapsed
 * (both remembered per origin), shrunk to its toolbar while marking, and the finding editor in a
 * popover beside the mark — in the docked panel when no side of the mark has room.
 */
import type { PageContextBridge } from "../bridge/api";
import type { Rect } from "../protocol";
import type { RepairActionList, RepairRecord, RepairStorageKind, RepairTarget } from "../repair/types";
import { missingWords } from "../repair/check";
import { translator, type OverlayLocale, type StringKey } from "./i18n";
import { mountLayoutEditor, type LayoutEditor, type LayoutTarget } from "./layout/index";
import { createAnnouncer } from "./dom/announcer";
import { buildEditor } from "./dom/editor";
import { h } from "./dom/el";
import { pageScroll, rectOf, regionNow } from "./dom/geometry";
import { unionOf } from "./dom/placement";
import { createEditorHost } from "./dom/editorHost";
import { commandOf, eventOrigin, isEditable } from "./dom/keys";
import { buildDraftList, buildSentList, summarizeTarget } from "./dom/lists";
import { buildAdviceList } from "./dom/advice";
import { buildCandidateList } from "./dom/candidates";
import { fetchCandidates, type RunCandidates } from "./candidates/feed";
import { resolveCandidate } from "./candidates/resolve";
import { severityOf, type PageAdvice } from "../advice/advice";
import { createMarkerLayer, type Marker } from "./dom/markers";
import { createMotionControl } from "./dom/motion";
import { describeElement, drawingAround, drawingTarget, isHostElement, nodeIdOf, nodeTarget, regionTarget, textTarget } from "./dom/pick";
import { createPointerLayer, type PointerMode } from "./dom/pointer";
import { draftStore, panelStore } from "./dom/storage";
import { OVERLAY_CSS } from "./dom/styles";
import { buildToolbar } from "./dom/toolbar";
import { DraftBook } from "./state/drafts";
import { escapeTarget, initialState, isCompact, reduce, type Editing, type OverlayEvent, type OverlayState } from "./state/machine";
import { draftProblem, MAX_INSTRUCTION, toRepairDraft } from "./state/toRepair";
import type { Draft } from "./state/types";

/** What the controller needs. */
export interface ControllerInput {
  win: Window;
  doc: Document;
  root: ShadowRoot;
  bridge: PageContextBridge;
  locale: OverlayLocale;
  open: boolean;
  repairStorage?: RepairStorageKind;
  /** The same-origin URL of the latest run's candidates feed (`…/candidates`); none: no list. */
  candidates?: string;
  onBridgeGone: () => void;
}

/** A per-runtime token: node ids in drafts saved under another runtime no longer mean anything. */
const runtimeTokens = new WeakMap<PageContextBridge, string>();
function runtimeTokenOf(bridge: PageContextBridge): string {
  let token = runtimeTokens.get(bridge);
  if (token === undefined) {
    token = Math.random().toString(36).slice(2, 12);
    runtimeTokens.set(bridge, token);
  }
  return token;
}

function newId(win: Window): string {
  const c = win.crypto as Crypto | undefined;
  const raw = c !== undefined && typeof c.randomUUID === "function" ? c.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return `finding-${raw}`;
}

/** A recovered draft whose node ids belong to an earlier runtime points at its stored region. */
function detachTarget(target: RepairTarget): RepairTarget {
  if (target.nodeIds.length === 0) return target;
  const kind = target.kind === "node" ? "region" : target.kind;
  if (kind === "region" && target.region === undefined) return target;
  return { ...target, kind, nodeIds: [] };
}

type StoredDraft = Draft & { runtime?: string };

/** Starts the overlay in `root`; returns the function that stops it. */
export function startController(input: ControllerInput): () => void {
  const { win, doc, root, bridge, locale } = input;
  const t = translator(locale);
  const token = runtimeTokenOf(bridge);
  const pageId = bridge.probe().pageId;
  // Drafts live where the runtime's queue lives (the handshake says where; memory for a runtime too old to say).
  const store = draftStore(input.repairStorage ?? bridge.handshake().repairStorage ?? "memory", win, pageId);
  const drafts = new DraftBook({
    load: () => store.load().map((d: StoredDraft) => (d.runtime === token ? d : { ...d, target: detachTarget(d.target), runtime: token })),
    save: (list) => store.save(list.map((d) => ({ ...d, runtime: token }))),
  });
  const ranges = new Map<string, Range>();
  const names = new Map<string, string>();
  const messages = new Map<string, string>();
  const place = panelStore(win);
  let state: OverlayState = { ...initialState(), open: input.open, ...place.load() };
  let records: RepairRecord[] = [];
  let actions: RepairActionList = { pending: [], outcomes: [] };
  let recordKey = "";
  let hover: Element | null = null;
  let layoutEditor: LayoutEditor | null = null;
  let pickResolve: ((v: { el: Element | null; rect: Rect | null }) => void) | null = null;
  let lastFocus: Element | null = null;
  let editorFor: string | null = null;
  let advice: PageAdvice | null = null;
  let candidates: RunCandidates | null = null;
  let candidatesError: string | null = null;
  let candidatesPage = "";
  const onPage = new Map<string, Element>();

  const style = h(doc, "style", {}, OVERLAY_CSS);
  const announcer = createAnnouncer(doc);
  const markers = createMarkerLayer(doc, win, bridge, () => placeEditor());
  const preview = h(doc, "div", { class: "layer", "aria-hidden": "true", "data-part": "preview" });
  const panel = h(doc, "section", { class: "panel", role: "dialog", "aria-modal": "false", "aria-labelledby": "panel-title", "data-part": "panel", tabindex: "-1" });
  const top = h(doc, "div", { "data-part": "top" });
  const editorSlot = h(doc, "div", { "data-part": "editor-slot" });
  const layoutSlot = h(doc, "div", { class: "layout-host", "data-part": "layout", hidden: true });
  const listSlot = h(doc, "div", { "data-part": "lists" });
  const body = h(doc, "div", { id: "panel-body" }, layoutSlot, editorSlot, listSlot);
  const editorHost = createEditorHost(doc, win, root, editorSlot);
  panel.append(top, body);
  const launcher = h(doc, "button", { type: "button", class: "launcher primary", "data-part": "launcher", onclick: () => dispatch({ type: "open" }) }, t("overlay.open"));
  const pointer = createPointerLayer(doc, win, {
    hover(el) {
      hover = el;
      refreshMarkers();
    },
    element(el) {
      if (pickResolve !== null) return finishPick({ el, rect: rectOf(el.getBoundingClientRect()) });
      mark(nodeTarget(bridge, win, el), el);
    },
    dragging(rect, points) {
      if (rect === null) return preview.replaceChildren();
      const box = h(doc, "div", { class: "preview" });
      box.style.transform = `translate(${rect.x}px, ${rect.y}px)`;
      box.style.width = `${rect.width}px`;
      box.style.height = `${rect.height}px`;
      preview.replaceChildren(points !== null ? drawingPreview(points) : box);
    },
    region(rect) {
      if (pickResolve !== null) return finishPick({ el: null, rect });
      mark(regionTarget(win, rect));
    },
    drawing(points) {
      mark(drawingTarget(win, points));
    },
    text(range) {
      const target = textTarget(bridge, win, range);
      if (target !== null) mark(target, null, range);
    },
  });
  const motion = createMotionControl(doc, () => false);
  root.append(style, markers.element, preview, pointer.element, panel, editorHost.element, launcher, announcer.element);

  function drawingPreview(points: ReadonlyArray<{ x: number; y: number }>): Node {
    const ns = "http://www.w3.org/2000/svg";
    const s = doc.createElementNS(ns, "svg");
    s.setAttribute("class", "drawing");
    s.setAttribute("width", "100%");
    s.setAttribute("height", "100%");
    const line = doc.createElementNS(ns, "polyline");
    line.setAttribute("points", points.map((p) => `${p.x},${p.y}`).join(" "));
    line.setAttribute("fill", "none");
    s.append(line);
    return s;
  }

  // ---- marking -------------------------------------------------------------------------------

  function mark(target: RepairTarget | null, el: Element | null = null, range?: Range): void {
    if (target === null) {
      announcer.say(t("error.nothing"), "assertive");
      return;
    }
    const id = newId(win);
    if (el !== null) names.set(target.nodeIds.join(" "), describeElement(el));
    if (range !== undefined) ranges.set(id, range);
    const before = state.selection.length;
    dispatch({ type: "marked", target, id, createdAt: new Date().toISOString() });
    if (state.mode === "multi") announcer.say(t("announce.added", { count: state.selection.length }));
    else if (state.editing !== null && before === 0) announcer.say(t("announce.marked"));
  }

  function finishPick(v: { el: Element | null; rect: Rect | null }): void {
    const resolve = pickResolve;
    pickResolve = null;
    dispatch({ type: "end_pick" });
    resolve?.(v);
  }

  function pick(kind: "region" | "node"): Promise<{ el: Element | null; rect: Rect | null }> {
    if (pickResolve !== null) finishPick({ el: null, rect: null });
    return new Promise((ok) => {
      pickResolve = ok;
      dispatch({ type: "start_pick", pick: kind });
    });
  }

  /** Keyboard marking: Enter on a focused host element. */
  function markFocused(el: Element): void {
    const rect = rectOf(el.getBoundingClientRect());
    if (state.picking !== null) return finishPick({ el, rect });
    switch (state.mode) {
      case "element":
      case "multi":
        return mark(nodeTarget(bridge, win, el), el);
      case "text": {
        const sel = win.getSelection();
        let range: Range;
        if (sel !== null && !sel.isCollapsed && sel.rangeCount > 0 && isHostElement(sel.getRangeAt(0).commonAncestorContainer.parentElement)) range = sel.getRangeAt(0).cloneRange();
        else {
          range = doc.createRange();
          range.selectNodeContents(el);
        }
        const target = textTarget(bridge, win, range);
        return target === null ? mark(null) : mark(target, null, range);
      }
      case "area": {
        const id = nodeIdOf(bridge, el);
        return mark(regionTarget(win, rect, id !== null ? [id] : []));
      }
      case "drawing": {
        const id = nodeIdOf(bridge, el);
        return mark(drawingAround(win, rect, id !== null ? [id] : []));
      }
      default:
        return undefined;
    }
  }

  // ---- drafts and sending ----------------------------------------------------------------------

  function currentDraft(): Draft | null {
    const e = state.editing;
    if (e === null) return null;
    return { id: e.id, createdAt: e.createdAt, target: e.target, ...e.fields };
  }

  function checkDraft(d: Draft): boolean {
    const problem = draftProblem(d);
    if (problem === null) return true;
    announcer.say(t(problem, { max: MAX_INSTRUCTION }), "assertive");
    (root.querySelector("#instruction") as HTMLElement | null)?.focus();
    return false;
  }

  function saveEditing(gesture?: Event): void {
    const d = currentDraft();
    if (d === null || !checkDraft(d)) return;
    drafts.save(d);
    const range = ranges.get(d.id);
    const fromPopover = editorHost.where() === "popover";
    dispatch({ type: "saved" });
    if (range !== undefined) ranges.set(d.id, range);
    announcer.say(t("announce.saved"));
    // A popover gives the focus back to where it was when it opened (dispatch did that).
    if (!fromPopover) focusKey(`edit-${d.id}`);
    if (state.autoSend) void send([d.id], gesture);
  }

  function sendEditing(gesture?: Event): void {
    const d = currentDraft();
    if (d === null || !checkDraft(d)) return;
    drafts.save(d);
    dispatch({ type: "saved" });
    void send([d.id], gesture);
  }

  /**
   * Sends drafts. `gesture` is the person's click that asked: the queue marks the findings
   * `human` only for a trusted gesture it sees while the browser dispatches it, so the first
   * submit happens before anything here awaits.
   */
  async function send(ids: readonly string[], gesture?: Event): Promise<void> {
    const how = gesture !== undefined ? { gesture } : {};
    const batch = ids.map((id) => drafts.get(id)).filter((d): d is Draft => d !== undefined);
    const ready = batch.filter((d) => draftProblem(d) === null);
    for (const d of batch) if (!ready.includes(d)) drafts.markFailed(d.id, t(draftProblem(d) ?? "error.instruction", { max: MAX_INSTRUCTION }));
    if (ready.length === 0) return render();
    let sent: string[] = [];
    let endpointFailed = false;
    try {
      const result = await bridge.submitRepair(ready.map(toRepairDraft), how);
      sent = ready.map((d) => d.id);
      endpointFailed = result.delivery === "endpoint_failed";
    } catch {
      // One bad item must not hide the others: send them one by one, in the same order.
      for (const d of ready) {
        try {
          const result = await bridge.submitRepair(toRepairDraft(d), how);
          sent.push(d.id);
          endpointFailed ||= result.delivery === "endpoint_failed";
        } catch (e) {
          drafts.markFailed(d.id, e instanceof Error ? e.message.replace(/^@a3s-lab\/testkit: /, "") : String(e));
        }
      }
    }
    drafts.remove(sent);
    for (const id of sent) ranges.delete(id);
    const failed = batch.length - sent.length;
    if (sent.length > 0) announcer.say(t("announce.sent", { count: sent.length }));
    if (failed > 0) announcer.say(t("announce.sentFailed", { count: failed }), "assertive");
    if (endpointFailed) announcer.say(t("announce.endpointFailed"), "assertive");
    refreshStatuses();
    render();
  }

  async function act(repairId: string, kind: "reply" | "accept" | "dismiss" | "reopen", message: string, gesture?: Event): Promise<void> {
    try {
      const status = bridge.listRepairs().find((r) => r.id === repairId)?.status;
      const missing = missingWords(kind, status, message);
      if (missing !== undefined) {
        announcer.say(t(missing === "reply" ? "error.replyNeedsMessage" : "error.dismissNeedsReason"), "assertive");
        return;
      }
      await bridge.submitRepairAction({ repairId, kind, ...(message.trim() !== "" ? { message } : {}) }, gesture !== undefined ? { gesture } : {});
      messages.delete(repairId);
      announcer.say(t("announce.actionSent", { action: t(`action.${kind}`) }));
      refreshStatuses();
      render(true);
    } catch (e) {
      announcer.say(t("error.send", { message: e instanceof Error ? e.message.replace(/^@a3s-lab\/testkit: /, "") : String(e) }), "assertive");
    }
  }

  // ---- statuses --------------------------------------------------------------------------------

  /** Re-reads findings and action outcomes; announces status changes and new final answers. */
  function refreshStatuses(): void {
    let list: RepairRecord[];
    let acts: RepairActionList;
    try {
      list = bridge.listRepairs();
      acts = bridge.listRepairActions();
    } catch {
      input.onBridgeGone();
      return;
    }
    const key = [
      ...list.map((r) => `${r.id}:${r.status}:${r.sequence}:${r.delivery}`),
      ...acts.pending.map((a) => `p:${a.requestId}`),
      ...acts.outcomes.map((o) => `o:${o.requestId}:${o.outcome}`),
    ].join("|");
    if (key === recordKey) return;
    const before = new Map(records.map((r) => [r.id, r.status]));
    const answeredBefore = new Set(actions.outcomes.map((o) => o.requestId));
    const pendingBefore = new Set(actions.pending.map((a) => a.requestId));
    records = list.map((r) => ({ ...r, events: [...r.events] }));
    actions = acts;
    recordKey = key;
    for (const r of records) {
      const old = before.get(r.id);
      if (old !== undefined && old !== r.status) announcer.say(t("announce.status", { name: r.instruction.slice(0, 40), status: t(`status.${r.status}`) }));
    }
    for (const o of acts.outcomes) {
      if (answeredBefore.has(o.requestId) || !pendingBefore.has(o.requestId)) continue;
      announcer.say(outcomeText(o), o.outcome === "refused" ? "assertive" : "polite");
    }
    render(true);
  }
  function outcomeText(o: RepairActionList["outcomes"][number]): string {
    const action = t(`action.${o.kind}`);
    return o.outcome === "refused" ? t("outcome.refused", { action, code: o.error?.code ?? "" }) : t(`outcome.${o.outcome}`, { action });
  }
  const unsubscribe = bridge.subscribeRepairs(() => refreshStatuses());

  // ---- advice ----------------------------------------------------------------------------------

  /** Re-reads the current revision's advice (an older runtime has none); redraws when it changed. */
  function refreshAdvice(): void {
    let now: PageAdvice | null = null;
    try {
      now = typeof bridge.listAdvice === "function" ? bridge.listAdvice() : null;
    } catch {
      now = null;
    }
    if (now === advice) return;
    const cleared = advice !== null && now === null;
    advice = now;
    if (cleared) announcer.say(t("announce.adviceCleared"));
    render(true);
  }

  /** Opens the editor on an advice item's target; nothing is saved until the reviewer writes and saves. */
  function draftFromAdvice(id: string): void {
    const item = advice?.items.find((a) => a.id === id);
    if (item === undefined) return;
    let target: RepairTarget | null = null;
    if (item.target.kind === "node") {
      const el = bridge.resolve(item.target.nodeId);
      if (el !== null) {
        target = nodeTarget(bridge, win, el);
        if (target !== null) names.set(target.nodeIds.join(" "), describeElement(el));
      }
    } else if (item.target.kind === "region") {
      target = regionTarget(win, { x: item.target.x, y: item.target.y, width: item.target.width, height: item.target.height });
    }
    target ??= regionTarget(win, { x: 0, y: 0, width: win.innerWidth, height: win.innerHeight });
    if (state.editing !== null) dispatch({ type: "close_editor" });
    dispatch({ type: "open_editor", target, id: newId(win), createdAt: new Date().toISOString(), fields: { severity: severityOf(item.priority) } });
    focusKey("instruction");
    announcer.say(t("announce.adviceDraft"));
  }

  // ---- candidates from the latest run -----------------------------------------------------

  /** Finds each candidate's element on the page now (exactly one match, or none). */
  function resolveCandidates(): void {
    onPage.clear();
    for (const c of candidates?.candidates ?? []) {
      const el = c.locator !== undefined ? resolveCandidate(bridge, doc, c.locator) : null;
      if (el !== null) onPage.set(c.id, el);
    }
  }

  /** Reads the feed for this page (again when the page's address changed); reading records nothing. */
  function loadCandidates(): void {
    const endpoint = input.candidates;
    const page = `${win.location.origin}${win.location.pathname}`;
    if (endpoint === undefined || page === candidatesPage) return;
    candidatesPage = page;
    void fetchCandidates(endpoint, win.location.href, win.fetch.bind(win)).then((got) => {
      if (stopped) return;
      if ("feed" in got) {
        candidates = got.feed;
        candidatesError = null;
      } else {
        candidates = null;
        candidatesError = got.error;
        announcer.say(t("candidates.unavailable", { reason: got.error }), "assertive");
      }
      resolveCandidates();
      render(true);
    });
  }

  /** Opens the editor on a candidate's element (or the viewport); nothing is saved until the reviewer writes and saves. */
  function draftFromCandidate(id: string): void {
    if (candidates?.candidates.some((c) => c.id === id) !== true) return;
    const el = onPage.get(id);
    let target: RepairTarget | null = null;
    if (el !== undefined && el.isConnected) {
      target = nodeTarget(bridge, win, el);
      if (target !== null) names.set(target.nodeIds.join(" "), describeElement(el));
    }
    target ??= regionTarget(win, { x: 0, y: 0, width: win.innerWidth, height: win.innerHeight });
    if (state.editing !== null) dispatch({ type: "close_editor" });
    dispatch({ type: "open_editor", target, id: newId(win), createdAt: new Date().toISOString() });
    focusKey("instruction");
    announcer.say(t("announce.candidateDraft"));
  }

  const unsubscribeAdvice = typeof bridge.subscribeAdvice === "function" ? bridge.subscribeAdvice(() => refreshAdvice()) : () => undefined;
  const unsubscribeRevisions = bridge.subscribe(() => {
    refreshAdvice();
    if (candidates !== null) {
      resolveCandidates();
      render(true);
    }
    loadCandidates();
  });

  // ---- layout ----------------------------------------------------------------------------------

  function onLayout(layout: LayoutTarget | null): void {
    if (state.editing !== null) {
      const { layout: _old, ...rest } = state.editing.target;
      dispatch({ type: "target", target: layout === null ? rest : { ...rest, layout } });
      return;
    }
    if (layout === null) return;
    const region = layout.mode === "placement" ? layout.destination : layout.originalRegion;
    const target: RepairTarget = { ...regionTarget(win, region, layout.mode === "rearrange" && layout.nodeId !== undefined ? [layout.nodeId] : []), layout };
    dispatch({ type: "open_editor", target, id: newId(win), createdAt: new Date().toISOString() });
  }

  function syncLayout(): void {
    layoutSlot.hidden = !state.layout;
    if (state.layout && layoutEditor === null) {
      layoutEditor = mountLayoutEditor(layoutSlot, {
        locale,
        strings: (key) => t(key as StringKey),
        onChange: onLayout,
        announce: (message) => announcer.say(message),
        pickRegion: async () => (await pick("region")).rect,
        pickNode: async () => {
          const got = await pick("node");
          if (got.el === null || got.rect === null) return null;
          const nodeId = nodeIdOf(bridge, got.el);
          return nodeId === null ? null : { nodeId, region: got.rect };
        },
      });
    } else if (!state.layout && layoutEditor !== null) {
      layoutEditor.destroy();
      layoutEditor = null;
      layoutSlot.replaceChildren();
    }
  }

  // ---- rendering -------------------------------------------------------------------------------

  function focusKey(key: string): void {
    (root.querySelector(`[data-focus="${key}"]`) as HTMLElement | null)?.focus();
  }

  function refreshMarkers(): void {
    const list: Marker[] = drafts.list().map((d, i) => {
      const range = ranges.get(d.id);
      return { key: d.id, label: String(i + 1), tone: "draft", target: d.target, ...(range !== undefined ? { range } : {}) };
    });
    state.selection.forEach((target, i) => list.push({ key: `selection-${i}`, label: "", tone: "selection", target }));
    advice?.items.forEach((a, i) => {
      const label = `A${i + 1}`;
      if (a.target.kind === "node") list.push({ key: `advice-${a.id}`, label, tone: "advice", target: { kind: "node", nodeIds: [a.target.nodeId] } });
      else if (a.target.kind === "region") list.push({ key: `advice-${a.id}`, label, tone: "advice", target: { kind: "region", nodeIds: [], region: { x: a.target.x, y: a.target.y, width: a.target.width, height: a.target.height } } });
    });
    candidates?.candidates.forEach((c, i) => {
      const el = onPage.get(c.id);
      const nodeId = el !== undefined ? bridge.nodeIdOf(el) : null;
      if (nodeId !== null) list.push({ key: `candidate-${c.id}`, label: `R${i + 1}`, tone: "candidate", target: { kind: "node", nodeIds: [nodeId] } });
    });
    if (state.editing !== null && drafts.get(state.editing.id) === undefined) {
      const range = ranges.get(state.editing.id);
      list.push({ key: state.editing.id, label: "", tone: "editing", target: state.editing.target, ...(range !== undefined ? { range } : {}) });
    }
    if (hover !== null && (state.mode === "element" || state.mode === "multi" || state.picking === "node")) {
      list.push({ key: "hover", label: "", tone: "hover", target: { kind: "region", nodeIds: [], region: rectOf(hover.getBoundingClientRect()) } });
    }
    markers.set(list);
    markers.setVisible(state.markersVisible);
  }

  function conflictChoices() {
    return [...drafts.list().map((d) => ({ id: d.id, label: d.instruction.slice(0, 50) || d.id })), ...records.map((r) => ({ id: r.id, label: `${r.instruction.slice(0, 50)} (${t(`status.${r.status}`)})` }))];
  }

  function render(listsOnly = false): void {
    const active = root.activeElement as HTMLElement | null;
    const key = active?.dataset.focus;
    panel.hidden = !state.open;
    launcher.hidden = state.open;
    const pointerMode: PointerMode = !state.open ? null : state.picking === "region" ? "pick-region" : state.picking === "node" ? "pick-node" : state.mode;
    pointer.setMode(pointerMode);
    launcher.dataset.dock = state.dock;
    const editing = state.editing;
    const editingKey = editing === null ? null : `${editing.id}:${JSON.stringify(editing.target)}`;
    if (editingKey !== editorFor) {
      editorFor = editingKey;
      if (editing === null) editorHost.clear();
      else {
        const name = names.get(editing.target.nodeIds.join(" "));
        // Layout Mode's form in the panel shapes the same finding: its editor stays beside it.
        editorHost.show(
          buildEditor(doc, t, editing, summarizeTarget(t, editing.target, name), conflictChoices(), {
            fields: (patch) => {
              state = reduce(state, { type: "fields", fields: patch });
            },
            save: saveEditing,
            send: sendEditing,
            cancel: () => dispatch({ type: "close_editor" }),
            remove: () => {
              drafts.remove([editing.id]);
              ranges.delete(editing.id);
              dispatch({ type: "close_editor" });
              announcer.say(t("announce.deleted"));
            },
          }),
          state.layout,
        );
      }
    }
    if (!listsOnly) renderChrome();
    listSlot.replaceChildren(
      ...[
        buildAdviceList(doc, t, advice, { draft: (id) => draftFromAdvice(id) }),
        buildCandidateList(doc, t, candidates, { draft: (id) => draftFromCandidate(id), onPage: (id) => onPage.has(id) }),
        candidatesError === null ? null : h(doc, "p", { class: "error", "data-part": "candidates-error" }, t("candidates.unavailable", { reason: candidatesError })),
      ].filter((x): x is HTMLElement => x !== null),
      buildDraftList(doc, t, drafts.list(), state.autoSend, (target) => names.get(target.nodeIds.join(" ")), {
        edit: (id) => {
          const d = drafts.get(id);
          if (d !== undefined) dispatch({ type: "edit", draft: d });
          focusKey("instruction");
        },
        move: (id, by) => {
          drafts.move(id, by);
          render(true);
          focusKey(`${by < 0 ? "up" : "down"}-${id}`);
        },
        sendAll: (gesture) => void send(drafts.list().map((d) => d.id), gesture),
        autoSend: (on) => dispatch({ type: "set_auto_send", on }),
      }),
      buildSentList(doc, t, records, actions, messages, {
        action: (id, kind, message, gesture) => void act(id, kind, message, gesture),
        message: (id, value) => void messages.set(id, value),
      }),
    );
    refreshMarkers();
    if (key !== undefined && root.activeElement !== active) {
      const again = root.querySelector(`[data-focus="${key}"]`) as HTMLElement | null;
      if (again !== null && !(again as HTMLButtonElement).disabled) {
        again.focus();
        if (again instanceof HTMLInputElement && again.type === "text") again.setSelectionRange(again.value.length, again.value.length);
      }
    }
  }

  // ---- panel placement and the editor popover ---------------------------------------------------

  /** The panel's frame for the current state: docked side, collapsed strip or full toolbar. */
  function renderChrome(): void {
    const compact = isCompact(state, editorHost.where());
    panel.dataset.dock = state.dock;
    panel.classList.toggle("compact", compact);
    body.hidden = compact;
    top.replaceChildren(
      ...buildToolbar(doc, t, state, compact, {
        close: () => dispatch({ type: "close" }),
        mode: (mode) => dispatch({ type: "start_mode", mode }),
        layout: () => dispatch({ type: "toggle_layout" }),
        pause: () => dispatch({ type: "toggle_pause" }),
        markers: () => dispatch({ type: "toggle_markers" }),
        finishMulti: () => dispatch({ type: "finish_multi", id: newId(win), createdAt: new Date().toISOString() }),
        dock: (d) => dispatch({ type: "dock", dock: d }),
        collapse: () => toggleCollapsed(),
      }),
    );
    syncLayout();
  }

  function toggleCollapsed(): void {
    const compact = isCompact(state, editorHost.where());
    dispatch({ type: "toggle_collapsed", compact, marking: state.mode !== null || editorHost.where() === "popover" });
    announcer.say(t(compact ? "announce.expanded" : "announce.collapsed"));
  }

  /** The mark's box now: its drawn marker, or the region it was stored with. */
  function markBox(editing: Editing): Rect | null {
    const drawn = unionOf(markers.boxesOf(editing.id));
    if (drawn !== null) return drawn;
    const region = editing.target.layout?.destination ?? editing.target.region;
    return region !== undefined ? regionNow(region, editing.target.regionScroll, pageScroll(win)) : null;
  }

  /**
   * Places the popover beside its mark (after every marker redraw, so it follows scroll and
   * resize); with no room on any side the editor moved into the panel, which then shows whole.
   */
  function placeEditor(): void {
    const editing = state.editing;
    if (editing === null || editorHost.where() !== "popover") return;
    const avoid = panel.hidden ? undefined : rectOf(panel.getBoundingClientRect());
    if (!editorHost.follow(state.open ? markBox(editing) : null, avoid, state.open)) renderChrome();
  }

  // ---- events ----------------------------------------------------------------------------------

  function dispatch(e: OverlayEvent): void {
    const before = state;
    const focusInside = root.activeElement !== null;
    state = reduce(state, e);
    if (state === before) return;
    if (before.mode !== state.mode && state.mode !== null) announcer.say(t("announce.mode", { mode: t(`mode.${state.mode}`) }));
    if (before.paused !== state.paused) {
      if (state.paused) motion.pause();
      else motion.resume();
      announcer.say(t(state.paused ? "announce.paused" : "announce.resumed"));
    }
    if (before.markersVisible !== state.markersVisible) announcer.say(t(state.markersVisible ? "announce.markersShown" : "announce.markersHidden"));
    if (before.layout !== state.layout) announcer.say(t(state.layout ? "announce.layoutOn" : "announce.layoutOff"));
    if (before.picking !== null && state.picking === null && pickResolve !== null) finishPick({ el: null, rect: null });
    const openedEditor = before.editing?.id !== state.editing?.id && state.editing !== null;
    const closedPanel = before.open && !state.open;
    if (!before.open && state.open) lastFocus = doc.activeElement;
    if (openedEditor) editorHost.rememberFocus();
    const closedPopover = before.editing !== null && state.editing === null && editorHost.where() === "popover";
    if (before.dock !== state.dock) announcer.say(t(`announce.dock.${state.dock}` as const));
    if (before.dock !== state.dock || before.collapsed !== state.collapsed) place.save({ dock: state.dock, collapsed: state.collapsed });
    render();
    // A layout change opens the editor without taking focus from the Layout Mode form.
    if (openedEditor && e.type !== "open_editor") focusKey("instruction");
    if (!before.open && state.open) panel.focus();
    // Focus was on a control that is gone (a closed editor): keep it in the panel.
    else if (focusInside && state.open && (root.activeElement === null || !root.activeElement.isConnected)) panel.focus();
    if (closedPopover && state.open) editorHost.returnFocus(`edit-${before.editing?.id ?? ""}`, panel);
    if (closedPanel) {
      if (lastFocus instanceof HTMLElement && lastFocus.isConnected && lastFocus !== doc.body) lastFocus.focus();
      else launcher.focus();
    }
  }

  function onKey(e: KeyboardEvent): void {
    if (!state.open) return;
    const origin = eventOrigin(e);
    const inOverlay = origin !== null && !isHostElement(origin);
    const cmd = commandOf(e, origin);
    if (cmd === null) return;
    const take = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    switch (cmd.kind) {
      case "escape": {
        // An open list (a combobox popup) closes first, by its own handler.
        if (origin?.getAttribute("aria-expanded") === "true") return;
        const what = escapeTarget(state);
        // An idle panel closes only when focus is in it, so the page keeps its own Escape.
        if (what === null || (what === "panel" && !inOverlay && origin !== doc.body)) return;
        take();
        dispatch({ type: "escape" });
        announcer.say(t(what === "edit" ? "announce.editorClosed" : what === "panel" ? "overlay.close" : "announce.cancelled"));
        return;
      }
      case "enter":
        if (inOverlay || origin === null || origin === doc.body) return;
        if (state.mode === "multi" && cmd.shift) {
          take();
          dispatch({ type: "finish_multi", id: newId(win), createdAt: new Date().toISOString() });
          return;
        }
        if (state.mode === null && state.picking === null) return;
        take();
        markFocused(origin);
        return;
      case "mode":
        take();
        dispatch({ type: "start_mode", mode: cmd.mode });
        return;
      case "layout":
        take();
        dispatch({ type: "toggle_layout" });
        return;
      case "pause":
        take();
        dispatch({ type: "toggle_pause" });
        return;
      case "markers":
        take();
        dispatch({ type: "toggle_markers" });
        return;
      case "dock":
        take();
        dispatch({ type: "dock" });
        return;
      case "collapse":
        take();
        toggleCollapsed();
    }
  }
  // Capture on the window: the overlay sees keys before the page's own handlers.
  win.addEventListener("keydown", onKey, true);

  let stopped = false;
  render();
  refreshStatuses();
  refreshAdvice();
  loadCandidates();
  if (state.open && !isEditable(doc.activeElement)) lastFocus = doc.activeElement;

  return () => {
    stopped = true;
    if (pickResolve !== null) finishPick({ el: null, rect: null });
    win.removeEventListener("keydown", onKey, true);
    try {
      unsubscribe();
      unsubscribeAdvice();
      unsubscribeRevisions();
    } catch {
      // A disposed bridge has nothing left to unsubscribe.
    }
    layoutEditor?.destroy();
    pointer.destroy();
    markers.destroy();
    announcer.destroy();
    motion.destroy();
  };
}
