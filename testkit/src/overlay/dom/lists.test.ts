/**
 * The sent list's buttons against the ledger: `docs/schema/human-actions-1.json` is the human
 * half of the ledger's transition table (the ledger's tests derive it from the table), so every
 * status must offer exactly the actions written there, in that order.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { REPAIR_STATUSES } from "../../repair/types";
import { actionsFor } from "./lists";

const FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "docs", "schema", "human-actions-1.json");
const table = (JSON.parse(readFileSync(FILE, "utf8")) as { statuses: Record<string, string[]> }).statuses;

describe("actionsFor", () => {
  it("lists every status the ledger knows, and no other", () => {
    expect(Object.keys(table).sort()).toEqual([...REPAIR_STATUSES].sort());
  });

  it.each([...REPAIR_STATUSES])("offers in %s exactly what the ledger accepts", (status) => {
    expect(actionsFor(status)).toEqual(table[status]);
  });

  it("offers nothing while an agent holds the finding", () => {
    for (const status of ["claimed", "repairing", "verifying"] as const) expect(actionsFor(status)).toEqual([]);
  });
});
