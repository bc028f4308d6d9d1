//! Registrations made by the application or its framework adapter: component boundaries, source
//! hints and flat source maps. Validation lives here; every change is reported so the revision
//! advances.
import { TestKitError } from "../errors";
import type { Facts, SourceSpan } from "../protocol";
import { normalizeFile, type SourceOwner } from "../source/mapping";
import { parseSourceMap, type ParsedSourceMap } from "../source/sourceMap";
import { expandRoots } from "../snapshot/walk";

/** A component boundary (what `A3STestBoundary` registers). */
export interface BoundaryRegistration {
  /** Unique id of this boundary instance on the page. */
  id: string;
  /** Display name of the component. */
  name: string;
  /** Source hint (1-based line/column). */
  source?: SourceSpan;
  /** Current root elements of the boundary. */
  roots: () => readonly Element[];
  /** Whether the component reports itself ready. @default () => true */
  ready?: () => boolean;
  /** Component facts (sanitized before serialization). @default () => ({}) */
  facts?: () => Facts;
}

/** A framework adapter's claim that `elements` were produced by `source`. */
export interface SourceRegistration {
  id: string;
  framework: string;
  elements: readonly Element[] | (() => readonly Element[]);
  source: SourceSpan;
}

/** A flat Source Map v3 for one generated file. */
export interface SourceMapRegistration {
  id: string;
  generatedFile: string;
  /** The map object or its JSON text; `sourcesContent` is ignored and nothing is fetched. */
  map: unknown;
}

/** Undoes a registration. */
export type Unregister = () => void;

function checkId(id: unknown, what: string): string {
  if (typeof id !== "string" || id.trim() === "" || id.length > 256) {
    throw new TestKitError("invalid_registration", `${what}.id must be a non-empty string of at most 256 characters`);
  }
  return id;
}

/** Validates a source span (1-based positive integer positions). */
export function checkSpan(span: unknown, what: string): SourceSpan {
  if (typeof span !== "object" || span === null) throw new TestKitError("invalid_registration", `${what} must be an object`);
  const s = span as Record<string, unknown>;
  if (typeof s.file !== "string" || s.file.trim() === "") throw new TestKitError("invalid_registration", `${what}.file must be a non-empty string`);
  const out: SourceSpan = { file: s.file };
  for (const key of ["line", "column", "endLine", "endColumn"] as const) {
    const v = s[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      throw new TestKitError("invalid_registration", `${what}.${key} must be a positive integer (1-based)`);
    }
    out[key] = v;
  }
  return out;
}

/** Holds every registration of one runtime. */
export class Registry {
  readonly #boundaryMap = new Map<string, BoundaryRegistration>();
  readonly #sourceMap = new Map<string, SourceRegistration>();
  readonly #maps = new Map<string, { id: string; parsed: ParsedSourceMap }>();

  readonly #onChange: () => void;

  /** @param onChange called after every registration change */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** Stores `value` under `key`; the returned function removes it again while it is still there. */
  #add<V>(map: Map<string, V>, key: string, value: V): Unregister {
    map.set(key, value);
    this.#onChange();
    return () => {
      if (map.get(key) === value) {
        map.delete(key);
        this.#onChange();
      }
    };
  }

  /** Registers a boundary; a duplicate id is rejected. */
  registerBoundary(reg: BoundaryRegistration): Unregister {
    const id = checkId(reg.id, "boundary");
    if (typeof reg.name !== "string") throw new TestKitError("invalid_registration", "boundary.name must be a string");
    if (typeof reg.roots !== "function") throw new TestKitError("invalid_registration", "boundary.roots must be a function");
    if (this.#boundaryMap.has(id)) throw new TestKitError("invalid_registration", `boundary id "${id}" is already registered`);
    const stored: BoundaryRegistration = { ...reg, id, ...(reg.source !== undefined ? { source: checkSpan(reg.source, "boundary.source") } : {}) };
    return this.#add(this.#boundaryMap, id, stored);
  }

  /** Registers a framework adapter's source claim. */
  registerSource(reg: SourceRegistration): Unregister {
    const id = checkId(reg.id, "source");
    if (typeof reg.framework !== "string" || reg.framework === "") throw new TestKitError("invalid_registration", "source.framework must be a non-empty string");
    if (typeof reg.elements !== "function" && !Array.isArray(reg.elements)) throw new TestKitError("invalid_registration", "source.elements must be an array or a function");
    const stored: SourceRegistration = { ...reg, id, source: checkSpan(reg.source, "source.source") };
    return this.#add(this.#sourceMap, id, stored);
  }

  /** Registers a flat source map for a generated file; replaces an earlier map for that file. */
  registerSourceMap(reg: SourceMapRegistration): Unregister {
    const id = checkId(reg.id, "sourceMap");
    if (typeof reg.generatedFile !== "string" || reg.generatedFile.trim() === "") {
      throw new TestKitError("invalid_registration", "sourceMap.generatedFile must be a non-empty string");
    }
    return this.#add(this.#maps, normalizeFile(reg.generatedFile), { id, parsed: parseSourceMap(reg.map) });
  }

  /** Registered boundaries in registration order. */
  boundaries(): BoundaryRegistration[] {
    return Array.from(this.#boundaryMap.values());
  }

  /** The boundary with `id`, if registered. */
  boundary(id: string): BoundaryRegistration | undefined {
    return this.#boundaryMap.get(id);
  }

  /** The parsed map for a normalized generated file. */
  lookupMap(file: string): ParsedSourceMap | undefined {
    return this.#maps.get(file)?.parsed;
  }

  /** Element → source owners, for one snapshot. */
  ownersByElement(): Map<Element, SourceOwner[]> {
    const out = new Map<Element, SourceOwner[]>();
    const add = (el: Element, owner: SourceOwner) => {
      const list = out.get(el);
      if (list === undefined) out.set(el, [owner]);
      else list.push(owner);
    };
    for (const b of this.#boundaryMap.values()) {
      if (b.source === undefined) continue;
      for (const root of expandRoots(b.roots())) add(root, { registrationId: b.id, origin: "boundary_hint", span: b.source });
    }
    for (const s of this.#sourceMap.values()) {
      const els = typeof s.elements === "function" ? s.elements() : s.elements;
      for (const el of els) add(el, { registrationId: s.id, origin: "framework_adapter", span: s.source });
    }
    return out;
  }
}
