//! Privacy rules: what is never serialized. Secret-looking keys and values, password/hidden
//! input values, redacted regions (`redact` selectors) and URL query secrets. Everything read
//! from the page passes through here before it reaches a record.
import type { Facts, JsonValue } from "../protocol";
import { truncateUtf8 } from "../util/utf8";

/** Replacement text for redacted content. */
export const REDACTED = "[redacted]";

const SECRET_KEY =
  /(pass(word|wd|phrase)?|secret|token|api[-_]?key|apikey|auth(?!or(?!i[sz]))|credential|session|cookie|csrf|xsrf|jwt|bearer|private[-_]?key|signature|sig$|otp|pin$|ssn|card[-_]?number|cvv|cvc)/i;

/** True when a key or attribute name looks like it holds a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/g;
const PREFIXED_KEY = /\b(sk|pk|rk|ghp|gho|ghu|ghs|xox[abpr])[-_][A-Za-z0-9_-]{16,}/g;

/** Replaces token-looking substrings (JWTs, bearer credentials, prefixed API keys). */
export function scrubSecrets(value: string): string {
  if (value.length < 16) return value;
  return value.replace(JWT, REDACTED).replace(BEARER, REDACTED).replace(PREFIXED_KEY, REDACTED);
}

// The same controls A3S Test itself never reports (driver/src/privacy.rs): these input types,
// and the autocomplete tokens for passwords, one-time codes and every payment-card field (`cc-*`).
const SECRET_INPUT_TYPES = new Set(["password", "hidden"]);
const SECRET_AUTOCOMPLETE = /(^|\s)(current-password|new-password|one-time-code|cc-[a-z-]*)(\s|$)/i;

/** True when a form control's value must never be serialized. */
export function isSecretControl(el: Element): boolean {
  const tag = el.localName;
  if (tag !== "input" && tag !== "textarea" && tag !== "select") return false;
  const type = (el.getAttribute("type") ?? "").trim().toLowerCase();
  if (tag === "input" && SECRET_INPUT_TYPES.has(type)) return true;
  const ac = el.getAttribute("autocomplete");
  if (ac !== null && SECRET_AUTOCOMPLETE.test(ac)) return true;
  const name = el.getAttribute("name") ?? "";
  return name !== "" && isSecretKey(name);
}

/** Compiled `redact` selectors; matching elements and their subtrees are never read. */
export class RedactionRules {
  readonly #selector: string | null;

  /** @param selectors CSS selectors; invalid ones throw at install time. */
  constructor(selectors: readonly string[], doc: Document | null) {
    const valid = selectors.map((s) => s.trim()).filter((s) => s !== "");
    this.#selector = valid.length === 0 ? null : valid.join(", ");
    if (this.#selector !== null && doc !== null) {
      // Throws a SyntaxError early for a bad selector instead of failing every snapshot.
      doc.createDocumentFragment().querySelector(this.#selector);
    }
  }

  /** True when there is at least one selector. */
  get hasSelectors(): boolean {
    return this.#selector !== null;
  }

  /**
   * True when whether an element matches depends only on it and its ancestors (no sibling
   * combinators, no pseudo-classes such as `:has()`, `:nth-child()` or `:hover`), so that only
   * mutations of the element or its ancestors can change it. Conservative: any `+`, `~` or `:`
   * in the selector text counts as non-local.
   */
  get isLocal(): boolean {
    return this.#selector === null || !/[+~:]/.test(this.#selector);
  }

  /** True when `el` itself matches a redact selector. */
  matches(el: Element): boolean {
    return this.#selector !== null && el.matches(this.#selector);
  }

  /** True when `el` or an ancestor (crossing shadow hosts) matches. */
  covers(el: Element): boolean {
    if (this.#selector === null) return false;
    let cur: Element | null = el;
    while (cur !== null) {
      if (cur.closest(this.#selector) !== null) return true;
      const root = cur.getRootNode();
      cur = root instanceof ShadowRoot ? root.host : null;
    }
    return false;
  }
}

/** Drops secret query values from a URL, keeping its shape. */
export function sanitizeUrl(href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return scrubSecrets(href);
  }
  if (url.username !== "" || url.password !== "") {
    url.username = "";
    url.password = "";
  }
  let touched = false;
  const params = url.searchParams;
  for (const key of Array.from(params.keys())) {
    if (isSecretKey(key) || key.toLowerCase() === "code" || key.toLowerCase() === "key") {
      params.set(key, REDACTED);
      touched = true;
    }
  }
  const out = touched ? url.toString() : url.href;
  return scrubSecrets(out);
}

/**
 * Sanitizes application facts: drops secret-looking keys, scrubs token-looking values, bounds
 * depth (4), keys per object (64), array length (64) and string bytes.
 */
export function sanitizeFacts(input: unknown, stringBytes: number): Facts {
  const out: Facts = {};
  if (typeof input !== "object" || input === null || Array.isArray(input)) return out;
  const value = sanitizeValue(input, stringBytes, 0);
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : out;
}

function sanitizeValue(v: unknown, stringBytes: number, depth: number): JsonValue {
  if (v === null) return null;
  switch (typeof v) {
    case "string":
      return truncateUtf8(scrubSecrets(v), stringBytes);
    case "number":
      return Number.isFinite(v) ? v : null;
    case "boolean":
      return v;
    case "object": {
      if (depth >= 4) return null;
      if (Array.isArray(v)) return v.slice(0, 64).map((x) => sanitizeValue(x, stringBytes, depth + 1));
      const out: { [key: string]: JsonValue } = {};
      let n = 0;
      for (const [k, x] of Object.entries(v)) {
        if (n >= 64) break;
        if (isSecretKey(k)) continue;
        out[k] = sanitizeValue(x, stringBytes, depth + 1);
        n++;
      }
      return out;
    }
    default:
      return null;
  }
}
