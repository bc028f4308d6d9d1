/**
 * The overlay's reader against the one committed schema of the feed,
 * `docs/schema/run-candidates-1.schema.json` (the runner's writer is held to the same file by
 * `runner/src/candidates/tests/schema.rs`, which also checks that the committed example is
 * exactly what the writer writes). The reader takes the writer's example unchanged, its bounds
 * are the schema's, and for every edited feed the reader and the schema agree on refusing it.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validate, type Schema } from "../../repair/jsonSchema.testing";
import { CANDIDATES_PROTOCOL, MAX_CANDIDATE_TEXT, MAX_CANDIDATES, readCandidates } from "./feed";
import { sampleFeed } from "./sample.testing";

const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "docs", "schema");
const read = (rel: string): unknown => JSON.parse(readFileSync(join(SCHEMA_DIR, rel), "utf8"));
const schema = read("run-candidates-1.schema.json") as Schema;
const example = read("examples/run-candidates.json");
type Def = Schema & { properties: Record<string, Schema>; required: string[] };
const defs = schema.$defs as Record<string, Def>;

type Json = Record<string, unknown>;
const clone = (): Json => JSON.parse(JSON.stringify(example)) as Json;
const item = (f: Json, i: number): Json => (f.candidates as Json[])[i]!;

function readerAccepts(value: unknown): boolean {
  try {
    readCandidates(value);
    return true;
  } catch {
    return false;
  }
}

/** Edits of the writer's example: each a name and what it does to a fresh copy. */
const EDITS: Array<[string, (f: Json) => void]> = [
  ["as written", () => undefined],
  ["no run", (f) => { delete f.run_id; delete f.started_at; f.candidates = []; }],
  ["an unknown top-level field", (f) => { f.extra = true; }],
  ["an unknown candidate field", (f) => { item(f, 0).extra = 1; }],
  ["an unknown locator field", (f) => { (item(f, 0).locator as Json).extra = 1; }],
  ["another protocol", (f) => { f.protocol = "a3s.test.run-candidates/2"; }],
  ["no page", (f) => { delete f.page; }],
  ["no omitted", (f) => { delete f.omitted; }],
  ["a negative omitted", (f) => { f.omitted = -1; }],
  ["a fractional omitted", (f) => { f.omitted = 1.5; }],
  ["too many candidates", (f) => { f.candidates = Array.from({ length: MAX_CANDIDATES + 1 }, (_, i) => ({ ...item(f, 0), id: `s/${i}` })); }],
  ["as many candidates as allowed", (f) => { f.candidates = Array.from({ length: MAX_CANDIDATES }, (_, i) => ({ ...item(f, 0), id: `s/${i}` })); }],
  ["a passed status", (f) => { item(f, 0).status = "passed"; }],
  ["a code outside the rule", (f) => { item(f, 0).code = "spec.wrong"; }],
  ["a code of 101 characters", (f) => { item(f, 0).code = `test.${"a".repeat(96)}`; }],
  ["an empty message", (f) => { item(f, 0).message = ""; }],
  ["a message at the bound", (f) => { item(f, 0).message = "m".repeat(MAX_CANDIDATE_TEXT); }],
  ["a message past the bound", (f) => { item(f, 0).message = "m".repeat(MAX_CANDIDATE_TEXT + 1); }],
  ["a message of astral characters at the bound", (f) => { item(f, 0).message = "😀".repeat(MAX_CANDIDATE_TEXT); }],
  ["a name at the bound", (f) => { item(f, 0).name = "n".repeat(500); }],
  ["a name past the bound", (f) => { item(f, 0).name = "n".repeat(501); }],
  ["a target past the bound", (f) => { item(f, 0).target = "t".repeat(501); }],
  ["a location past the bound", (f) => { item(f, 0).location = "l".repeat(501); }],
  ["a page_url past the bound", (f) => { item(f, 0).page_url = "u".repeat(501); }],
  ["no page_url", (f) => { delete item(f, 0).page_url; }],
  ["no target, locator or location", (f) => { const c = item(f, 0); delete c.target; delete c.locator; delete c.location; }],
  ["a run_id of 65 characters", (f) => { f.run_id = "r".repeat(65); }],
  ["an empty started_at", (f) => { f.started_at = ""; }],
  ["an unknown locator kind", (f) => { (item(f, 0).locator as Json).kind = "xpath"; }],
  ["a role locator without mode", (f) => { delete (item(f, 0).locator as Json).mode; }],
  ["a role of 101 characters", (f) => { (item(f, 0).locator as Json).role = "r".repeat(101); }],
  ["a locator value past the bound", (f) => { item(f, 0).locator = { kind: "text", value: "v".repeat(501), mode: "exact" }; }],
  ["a test_id locator with a mode", (f) => { item(f, 0).locator = { kind: "test_id", value: "pay", mode: "exact" }; }],
  ["a css locator", (f) => { item(f, 0).locator = { kind: "css", value: "#pay" }; }],
  ["a locator mode outside the list", (f) => { item(f, 0).locator = { kind: "label", value: "Email", mode: "regex" }; }],
];

describe("a3s.test.run-candidates/1 schema (docs/schema/run-candidates-1.schema.json)", () => {
  it("takes the writer's example, and the reader reads it back unchanged", () => {
    expect(validate(schema, example)).toEqual([]);
    expect(readCandidates(example)).toEqual(example);
    expect(validate(schema, sampleFeed())).toEqual([]);
  });

  it("has the reader's protocol and bounds", () => {
    expect(defs.feed!.properties.protocol!.const).toBe(CANDIDATES_PROTOCOL);
    expect(defs.feed!.properties.candidates!.maxItems).toBe(MAX_CANDIDATES);
    expect(defs.candidate!.properties.message!.maxLength).toBe(MAX_CANDIDATE_TEXT);
  });

  it.each(EDITS)("agrees with the reader on a feed with %s", (_name, edit) => {
    const f = clone();
    edit(f);
    expect(readerAccepts(f)).toBe(validate(schema, f).length === 0);
  });

  it("refuses what it must (the edits are not all accepted)", () => {
    const refused = EDITS.filter(([, edit]) => {
      const f = clone();
      edit(f);
      return validate(schema, f).length > 0;
    }).length;
    expect(refused).toBeGreaterThan(EDITS.length / 2);
  });

  it("leaves one rule to the reader: a repeated candidate id", () => {
    const f = clone();
    item(f, 1).id = item(f, 0).id;
    expect(validate(schema, f)).toEqual([]);
    expect(readerAccepts(f)).toBe(false);
  });
});
