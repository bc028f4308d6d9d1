/**
 * The panel's two lists: saved drafts in visible workspace order (edit, reorder, "Send all",
 * the session-only auto-send choice) and sent findings with their live status (one of the 13 of
 * the repair state machine), delivery, the human actions valid for that status, and what became
 * of the actions already sent (waiting, applied, duplicate, or refused with the endpoint's code).
 */
import type { RepairActionInput, RepairActionList, RepairRecord, RepairStatus, RepairTarget } from "../../repair/types";
import type { Translate } from "../i18n";
import type { Draft } from "../state/types";
import { h } from "./el";

/**
 * Human actions offered per status: exactly the human edges of the ledger's transition table
 * (`docs/schema/human-actions-1.json`, checked against the ledger by its tests and against this
 * table by `lists.test.ts`). A button the ledger would refuse is never shown.
 */
export function actionsFor(status: RepairStatus): Array<RepairActionInput["kind"]> {
  switch (status) {
    case "review_ready":
      return ["accept", "dismiss", "reopen"];
    case "needs_input":
    case "verification_failed":
    case "reopened":
      return ["reply", "dismiss"];
    case "queued":
      return ["dismiss"];
    case "resolved":
    case "dismissed":
    case "cancelled":
    case "failed":
      return ["reopen"];
    case "claimed":
    case "repairing":
    case "verifying":
    case "draft":
      return [];
  }
}

/** A one-line description of a target. */
export function summarizeTarget(t: Translate, target: RepairTarget, name?: string): string {
  const size = target.region !== undefined ? { width: Math.round(target.region.width), height: Math.round(target.region.height) } : { width: 0, height: 0 };
  if (target.layout !== undefined) return t("target.layout", { what: target.layout.mode === "placement" ? target.layout.componentType : `${Math.round(target.layout.destination.width)} × ${Math.round(target.layout.destination.height)}` });
  switch (target.kind) {
    case "node":
      return target.nodeIds.length > 1 || name === undefined ? t("target.nodes", { count: target.nodeIds.length }) : t("target.node", { name });
    case "text":
      return t("target.text", { text: (target.text ?? "").slice(0, 60) });
    case "region":
      return t("target.region", size);
    case "drawing":
      return t("target.drawing", size);
  }
}

function excerpt(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}

/** What the draft list asks for. */
export interface DraftListHandlers {
  edit(id: string): void;
  move(id: string, by: -1 | 1): void;
  /** Send every draft; `gesture` is the click that asked. */
  sendAll(gesture: Event): void;
  autoSend(on: boolean): void;
}

/** The draft list section. */
export function buildDraftList(doc: Document, t: Translate, drafts: readonly Draft[], autoSend: boolean, nameOf: (target: RepairTarget) => string | undefined, on: DraftListHandlers): HTMLElement {
  const items = drafts.map((d, i) =>
    h(
      doc,
      "li",
      { class: "item", "data-draft": d.id },
      h(doc, "span", { class: "badge", "aria-hidden": "true" }, String(i + 1)),
      h(doc, "div", { class: "body" }, h(doc, "p", { class: "what" }, excerpt(d.instruction)), h(doc, "p", { class: "meta" }, `${summarizeTarget(t, d.target, nameOf(d.target))} · ${t("status.draft")}`), d.sendError !== undefined ? h(doc, "p", { class: "error" }, t("error.send", { message: d.sendError })) : null),
      h(
        doc,
        "div",
        { class: "row" },
        h(doc, "button", { type: "button", "data-focus": `edit-${d.id}`, "aria-label": `${t("list.edit")} ${i + 1}`, onclick: () => on.edit(d.id) }, t("list.edit")),
        h(doc, "button", { type: "button", class: "ghost", "data-focus": `up-${d.id}`, "aria-label": `${t("list.moveUp")} ${i + 1}`, disabled: i === 0, onclick: () => on.move(d.id, -1) }, "↑"),
        h(doc, "button", { type: "button", class: "ghost", "data-focus": `down-${d.id}`, "aria-label": `${t("list.moveDown")} ${i + 1}`, disabled: i === drafts.length - 1, onclick: () => on.move(d.id, 1) }, "↓"),
      ),
    ),
  );
  const auto = h(doc, "input", { type: "checkbox", id: "auto-send", checked: autoSend, "data-focus": "auto-send", onchange: (e: Event) => on.autoSend((e.target as HTMLInputElement).checked) });
  return h(
    doc,
    "section",
    { class: "list drafts", "aria-labelledby": "drafts-heading", "data-part": "drafts" },
    h(doc, "h3", { id: "drafts-heading" }, `${t("list.drafts")} (${drafts.length})`),
    drafts.length === 0 ? h(doc, "p", { class: "empty" }, t("list.empty")) : h(doc, "ol", {}, ...items),
    h(doc, "div", { class: "row" }, h(doc, "button", { type: "button", class: "primary", "data-focus": "send-all", disabled: drafts.length === 0, onclick: (e: Event) => on.sendAll(e) }, t("list.sendAll"))),
    h(doc, "p", { class: "check" }, auto, h(doc, "label", { for: "auto-send" }, t("list.autoSend"))),
  );
}

/** What the sent list asks for. */
export interface SentListHandlers {
  /** Queue the reviewer's action; `gesture` is the click that asked. */
  action(repairId: string, kind: RepairActionInput["kind"], message: string, gesture: Event): void;
  message(repairId: string, value: string): void;
}

/** Most action lines shown per finding (the newest). */
const MAX_ACTION_LINES = 4;

/** One line per action of `repairId`: final answers first (oldest first), then those still waiting. */
export function actionLines(t: Translate, repairId: string, actions: RepairActionList): Array<{ requestId: string; state: "pending" | "applied" | "duplicate" | "refused"; text: string }> {
  const answered = actions.outcomes
    .filter((o) => o.repairId === repairId)
    .map((o) => {
      const action = t(`action.${o.kind}`);
      const text = o.outcome === "refused" ? t("outcome.refused", { action, code: o.error?.code ?? "" }) : t(`outcome.${o.outcome}`, { action });
      return { requestId: o.requestId, state: o.outcome, text };
    });
  const waiting = actions.pending.filter((a) => a.repairId === repairId).map((a) => ({ requestId: a.requestId, state: "pending" as const, text: t("outcome.pending", { action: t(`action.${a.kind}`) }) }));
  return [...answered, ...waiting].slice(-MAX_ACTION_LINES);
}

/** The sent findings section. */
export function buildSentList(doc: Document, t: Translate, records: readonly RepairRecord[], actions: RepairActionList, messages: ReadonlyMap<string, string>, on: SentListHandlers): HTMLElement {
  const items = records.map((r) => {
    const lines = actionLines(t, r.id, actions);
    const last = r.events[r.events.length - 1];
    const kinds = actionsFor(r.status);
    const inputId = `message-${r.id}`;
    const input = h(doc, "input", { type: "text", id: inputId, "data-focus": inputId, "aria-label": `${t("action.message")} (${excerpt(r.instruction).slice(0, 30)})` }) as HTMLInputElement;
    input.value = messages.get(r.id) ?? "";
    input.addEventListener("input", () => on.message(r.id, input.value));
    return h(
      doc,
      "li",
      { class: "item", "data-repair": r.id, "data-status": r.status },
      h(
        doc,
        "div",
        { class: "body" },
        h(doc, "p", { class: "what" }, excerpt(r.instruction)),
        h(doc, "p", { class: "meta" }, h(doc, "span", { class: `status s-${r.status}`, "data-part": "status" }, `${t("status.label")}: ${t(`status.${r.status}`)}`),
          ` · ${t(r.delivery === "taken" ? "delivery.taken" : r.delivery === "endpoint" ? "delivery.endpoint" : "delivery.page_queue")}`,
          // Page code can queue findings too; the reviewer must be able to tell them from their own.
          r.sentBy !== "human" ? h(doc, "span", { class: "sender", "data-part": "sender" }, ` · ${t("sender.page_script")}`) : null,
        ),
        last?.message !== undefined ? h(doc, "p", { class: "message" }, excerpt(last.message)) : null,
        lines.length > 0
          ? h(doc, "ul", { class: "outcomes", "data-part": "outcomes", "aria-label": t("outcome.label") }, ...lines.map((l) => h(doc, "li", { class: `outcome o-${l.state}`, "data-outcome": l.state, "data-request": l.requestId }, l.text)))
          : null,
      ),
      kinds.length > 0
        ? h(
            doc,
            "div",
            { class: "row actions" },
            input,
            ...kinds.map((k) => h(doc, "button", { type: "button", "data-focus": `${k}-${r.id}`, onclick: (e: Event) => on.action(r.id, k, input.value, e) }, t(`action.${k}`))),
          )
        : null,
    );
  });
  return h(
    doc,
    "section",
    { class: "list sent", "aria-labelledby": "sent-heading", "data-part": "sent" },
    h(doc, "h3", { id: "sent-heading" }, `${t("list.sent")} (${records.length})`),
    records.length === 0 ? h(doc, "p", { class: "empty" }, t("list.sentEmpty")) : h(doc, "ol", {}, ...items),
  );
}
