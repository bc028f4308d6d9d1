import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { installTestKit } from "../bridge/install";
import { fakePlatform } from "../testing/fakePlatform";
import { validate, type Schema } from "./jsonSchema.testing";
import { MAX_CRITERIA, MAX_CRITERION_CHARS, MAX_RELATIONS } from "./criteria";
import { MAX_INSTRUCTION_CHARS } from "./queue";
import { REPAIR_ACTION_ANSWERS, SUCCESS_CRITERION_KINDS, TARGET_STATES, type RepairAction, type RepairSender } from "./types";
import { finalOutcomes } from "./answers";
import { CATALOG_ID_PATTERN, layoutProblem, MAX_LAYOUT_FIELD_CHARS } from "./layout";
import { buildPlacement, buildRearrange } from "../overlay/layout/target";

/** The repository's `docs/schema/` (one schema for the Test Kit and the ledger). */
const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "docs", "schema");
const read = (rel: string): unknown => JSON.parse(readFileSync(join(SCHEMA_DIR, rel), "utf8"));
const schema = read("repair-1.schema.json") as Schema;
const defs = schema.$defs as Record<string, Schema & { properties: Record<string, Schema> }>;

describe("a3s.test.repair/1 schema (docs/schema/repair-1.schema.json)", () => {
  it("accepts what the Test Kit queues, taken and peeked, and its actions", async () => {
    document.body.innerHTML = `<section><button data-testid="pay">Pay now</button><p data-testid="note">Card saved</p></section>`;
    const bridge = installTestKit({ enabled: true, page: { id: "schema" }, platform: fakePlatform(window).platform });
    if (bridge === null) throw new Error("not installed");
    try {
      const nodes = bridge.snapshot().nodes;
      const pay = nodes.find((n) => n.testId === "pay")?.id ?? "";
      await bridge.submitRepair([
        {
          id: "compact",
          target: { kind: "node", nodeIds: [pay] },
          instruction: "Make it compact",
          successCriteria: ["Feels lighter", { kind: "target_text", equals: "Pay" }, { kind: "target_state", state: "checked" }],
          intent: "change",
          severity: "important",
          relations: [{ kind: "conflicts_with", findingId: "wide" }],
        },
        {
          id: "wide",
          target: { kind: "region", nodeIds: [], region: { x: 0, y: 0, width: 40, height: 40 }, regionScroll: { x: 0, y: 0 } },
          instruction: "Make it wide",
          successCriteria: [{ kind: "page_text", contains: "Pay" }, { kind: "page_text_absent", contains: "Error" }, { kind: "target_visible" }, { kind: "target_hidden" }],
          intent: "fix",
          severity: "blocking",
        },
      ]);
      const peeked = bridge.peekRepairBatch();
      expect(validate(schema, JSON.parse(JSON.stringify(peeked)))).toEqual([]);
      const action = await bridge.submitRepairAction({ repairId: "compact", kind: "reply", message: "Keep it", requestId: "r1" });
      expect(validate(schema, { protocol: "a3s.test.repair/1", actions: [action] })).toEqual([]);
      const taken = bridge.takeRepairBatch({ ids: ["compact", "wide"] });
      expect(taken.repairs.map((r) => r.delivery)).toEqual(["taken", "taken"]);
      expect(validate(schema, JSON.parse(JSON.stringify(taken)))).toEqual([]);
    } finally {
      bridge.dispose();
    }
  });
  it("accepts its examples and refuses the old shapes", () => {
    const repairs = read("examples/repairs.json") as { repairs: Array<Record<string, unknown>> };
    expect(validate(schema, repairs)).toEqual([]);
    expect(validate(schema, read("examples/actions.json"))).toEqual([]);
    const first = repairs.repairs[0] ?? {};
    const old = { ...first, relations: [{ kind: "conflicts_with", repairId: "x" }] };
    const asBatch = (repair: unknown) => validate({ $ref: "#/$defs/repairBatch" }, { protocol: "a3s.test.repair/1", repairs: [repair] }, schema);
    expect(validate(schema, { protocol: "a3s.test.repair/1", repairs: [old] })).not.toEqual([]);
    expect(asBatch(old)).toEqual(["$.repairs[0].relations[0]: missing findingId", "$.repairs[0].relations[0]: unknown field repairId"]);
    expect(asBatch({ ...first, criteria: ["x"] })).toEqual(["$.repairs[0]: unknown field criteria"]);
    expect(asBatch({ ...first, successCriteria: [{ kind: "target_state", state: "pressed" }] }).join("\n")).toMatch(/successCriteria\[0\]: matches 0 of oneOf/);
  });
  it("describes the endpoint's answer to actions, which the queue reads", () => {
    const response = read("examples/actions-response.json") as { actions: Array<{ id: string; findingId: string; requestId: string }> };
    expect(validate({ $ref: "#/$defs/actionsResponse" }, response, schema)).toEqual([]);
    expect(defs.actionOutcome?.properties.outcome?.enum).toEqual([...REPAIR_ACTION_ANSWERS]);
    const sent: RepairAction[] = response.actions.map((a) => ({ id: a.id, repairId: a.findingId, requestId: a.requestId, kind: "dismiss", createdAt: "2026-01-01T00:00:00Z", sentBy: "human" }));
    const answers = finalOutcomes(response, sent, "2026-01-01T00:00:01Z");
    expect([...answers.values()].map((o) => [o.outcome, o.status ?? o.error?.code])).toEqual([
      ["applied", "queued"],
      ["duplicate", "cancelled"],
      ["refused", "test.session.repair_invalid_transition"],
    ]);
  });
  it("describes the layout targets the Layout Mode builds and the queue checks", () => {
    const viewport = { width: 800, height: 600 };
    const destination = { x: 10, y: 10, width: 100, height: 40 };
    const built = [
      buildPlacement({ componentType: "date-picker", componentSource: "catalog", canvas: "page", destination }, viewport),
      buildPlacement({ componentType: " My Button ", componentSource: "project", canvas: "wireframe", purpose: "Checkout", destination }, viewport),
      buildRearrange({ originalRegion: { x: 0, y: -20, width: 300, height: 900 }, nodeId: "n1", destination }, viewport),
    ];
    for (const r of built) {
      if (!r.ok) throw new Error(JSON.stringify(r.issues));
      expect(validate({ $ref: "#/$defs/layout" }, r.value, schema)).toEqual([]);
      expect(layoutProblem(r.value)).toBeUndefined();
    }
    const placement = { mode: "placement", componentType: "Button", componentSource: "catalog", canvas: "page", destination };
    for (const bad of [placement, { ...placement, componentSource: "project", purpose: "" }, { ...placement, componentSource: undefined }]) {
      const clean = JSON.parse(JSON.stringify(bad)) as unknown;
      expect(validate({ $ref: "#/$defs/layout" }, clean, schema)).not.toEqual([]);
      expect(layoutProblem(clean)).toBeDefined();
    }
    const [catalog, project] = (defs.layout?.oneOf ?? []) as Array<{ properties: Record<string, Schema> }>;
    expect(catalog?.properties.componentType?.pattern).toBe(CATALOG_ID_PATTERN.source);
    expect(project?.properties.purpose?.maxLength).toBe(MAX_LAYOUT_FIELD_CHARS);
  });
  it("describes who sent a finding or an action, as the queue marks it", async () => {
    const senders: RepairSender[] = ["human", "page_script"];
    expect(defs.sentBy?.enum).toEqual(senders);
    expect(defs.repair?.properties.sentBy?.$ref).toBe("#/$defs/sentBy");
    expect(defs.action?.properties.sentBy?.$ref).toBe("#/$defs/sentBy");
    // A call without a person's gesture is page code's, on the wire too.
    const bridge = installTestKit({ enabled: true, page: { id: "schema-sender" }, platform: fakePlatform(window).platform });
    if (bridge === null) throw new Error("not installed");
    try {
      const region = { x: 0, y: 0, width: 10, height: 10 };
      const { repairs } = await bridge.submitRepair({ id: "by-script", target: { kind: "region", nodeIds: [], region }, instruction: "x", intent: "fix", severity: "suggestion" });
      expect(repairs[0]?.sentBy).toBe("page_script");
      expect(validate(schema, JSON.parse(JSON.stringify(bridge.peekRepairBatch())))).toEqual([]);
      const action = await bridge.submitRepairAction({ repairId: "by-script", kind: "dismiss" });
      expect(action.sentBy).toBe("page_script");
      expect(validate(schema, { protocol: "a3s.test.repair/1", actions: [action] })).toEqual([]);
    } finally {
      bridge.dispose();
    }
  });
  it("states the queue's enums and bounds", () => {
    const crit = defs.successCriterion?.oneOf as Array<{ properties?: Record<string, { const?: string; enum?: string[] }>; maxLength?: number }>;
    const kinds = crit.slice(1).flatMap((c) => c.properties?.kind?.enum ?? [c.properties?.kind?.const ?? ""]);
    expect(new Set(kinds)).toEqual(new Set(SUCCESS_CRITERION_KINDS));
    expect(crit[4]?.properties?.state?.enum).toEqual([...TARGET_STATES]);
    expect(crit[0]?.maxLength).toBe(MAX_CRITERION_CHARS);
    const repair = defs.repair?.properties ?? {};
    expect(repair.successCriteria?.maxItems).toBe(MAX_CRITERIA);
    expect(repair.relations?.maxItems).toBe(MAX_RELATIONS);
    expect(repair.instruction?.maxLength).toBe(MAX_INSTRUCTION_CHARS);
  });
});
