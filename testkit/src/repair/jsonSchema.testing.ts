/**
 * Test-only: checks a value against the keywords `docs/schema/repair-1.schema.json` uses (a
 * small, strict subset of JSON Schema 2020-12). A keyword outside the subset fails loudly, so the
 * schema cannot grow a rule these tests silently skip. Not part of any package entry.
 */

/** A JSON Schema node. */
export type Schema = { [keyword: string]: unknown };

const KNOWN = new Set([
  "$schema", "$id", "$ref", "$defs", "title", "description",
  "type", "const", "enum", "pattern", "minLength", "maxLength", "minimum",
  "minItems", "maxItems", "items", "properties", "required", "additionalProperties", "oneOf",
]);

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case "object": return typeof v === "object" && v !== null && !Array.isArray(v);
    case "array": return Array.isArray(v);
    case "string": return typeof v === "string";
    case "number": return typeof v === "number" && Number.isFinite(v);
    case "integer": return Number.isInteger(v);
    case "boolean": return typeof v === "boolean";
    default: throw new Error(`unsupported type ${type}`);
  }
}

/** The errors of `value` against `schema` (empty when valid); `root` resolves `$ref`s. */
export function validate(schema: Schema, value: unknown, root: Schema = schema, at = "$"): string[] {
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) throw new Error(`unsupported keyword ${k} at ${at}`);
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace(/^#\/\$defs\//, "");
    const target = (root.$defs as Record<string, Schema> | undefined)?.[name];
    if (target === undefined) throw new Error(`unresolved ${schema.$ref}`);
    return validate(target, value, root, at);
  }
  const errors: string[] = [];
  const fail = (m: string) => errors.push(`${at}: ${m}`);
  if (Array.isArray(schema.oneOf)) {
    const passing = (schema.oneOf as Schema[]).filter((s) => validate(s, value, root, at).length === 0).length;
    if (passing !== 1) fail(`matches ${passing} of oneOf`);
  }
  if (typeof schema.type === "string" && !typeOk(schema.type, value)) return [...errors, `${at}: not ${schema.type}`];
  if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) fail(`not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) fail(`not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === "string") {
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value)) fail(`does not match ${schema.pattern}`);
    const n = [...value].length;
    if (typeof schema.minLength === "number" && n < schema.minLength) fail(`shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === "number" && n > schema.maxLength) fail(`longer than ${schema.maxLength}`);
  }
  if (typeof value === "number" && typeof schema.minimum === "number" && value < schema.minimum) fail(`below ${schema.minimum}`);
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) fail(`fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) fail(`more than ${schema.maxItems} items`);
    if (typeof schema.items === "object" && schema.items !== null) {
      value.forEach((item, i) => errors.push(...validate(schema.items as Schema, item, root, `${at}[${i}]`)));
    }
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const r of (schema.required ?? []) as string[]) if (!(r in obj)) fail(`missing ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      const p = props[k];
      if (p !== undefined) errors.push(...validate(p, v, root, `${at}.${k}`));
      else if (schema.additionalProperties === false) fail(`unknown field ${k}`);
    }
  }
  return errors;
}
