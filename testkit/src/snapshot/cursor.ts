//! Revision-bound cursors. A cursor names the revision, the exact request and the next offset;
//! one from another revision or another request is rejected, never silently restarted.
import { TestKitError } from "../errors";

/** A decoded cursor. */
export interface Cursor {
  revision: number;
  requestKey: string;
  offset: number;
}

const PREFIX = "a3s1";

/** Encodes a cursor as an opaque string. */
export function encodeCursor(c: Cursor): string {
  return `${PREFIX}.${c.revision.toString(36)}.${c.requestKey}.${c.offset.toString(36)}`;
}

/** Decodes and checks a cursor against the current revision and request. */
export function acceptCursor(token: string, revision: number, requestKey: string): Cursor {
  const parts = token.split(".");
  const [prefix, rev, key, offset] = parts;
  if (parts.length !== 4 || prefix !== PREFIX || rev === undefined || key === undefined || offset === undefined || !/^[0-9a-z]+$/.test(rev) || !/^[0-9a-z]+$/.test(offset)) {
    throw new TestKitError("invalid_cursor", "cursor is malformed; pass nextCursor unchanged");
  }
  const c: Cursor = { revision: parseInt(rev, 36), requestKey: key, offset: parseInt(offset, 36) };
  if (c.revision !== revision) {
    throw new TestKitError("cursor_stale", `cursor belongs to revision ${c.revision}, the page is at ${revision}; take a new snapshot`);
  }
  if (c.requestKey !== requestKey) {
    throw new TestKitError("cursor_mismatch", "cursor belongs to a different request; repeat the exact request with it");
  }
  return c;
}
