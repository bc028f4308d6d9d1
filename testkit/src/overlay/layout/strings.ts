/**
 * Layout Mode's view of the overlay's string tables: its strings live in
 * `overlay/i18n/en.ts` and `zh-CN.ts` under `layout.` keys (one table per locale, checked for
 * completeness there); the editor receives the overlay's lookup and fills `{name}` placeholders
 * itself, so it works whether or not the lookup already does.
 * @module
 */
import type { StringKey } from "../i18n/en";

/** The locales the overlay renders. */
export type LayoutLocale = "en" | "zh-CN";

/** A `layout.` key of the overlay's string tables. */
export type LayoutStringKey = Extract<StringKey, `layout.${string}`>;

/** Looks up one Layout Mode string and fills its placeholders. */
export type LayoutTranslate = (key: LayoutStringKey, vars?: Readonly<Record<string, string | number>>) => string;

/** Wraps the overlay's lookup; unknown placeholders stay visible rather than vanish. */
export function layoutTranslator(strings: (key: string) => string): LayoutTranslate {
  return (key, vars) => {
    const template = strings(key);
    return vars === undefined ? template : template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  };
}
