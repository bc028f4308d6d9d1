/**
 * Locale choice and string lookup of the Review Overlay. `auto` follows the browser's preferred
 * languages (any `zh` variant picks Simplified Chinese, anything else English); a placeholder
 * `{name}` is replaced by the matching parameter and left visible when none is given.
 */
import { en, type StringKey } from "./en";
import { zhCN } from "./zh-CN";

/** A locale the overlay can show. */
export type OverlayLocale = "en" | "zh-CN";
/** What a caller may ask for: a locale, or `auto` to follow the browser. */
export type OverlayLocaleOption = OverlayLocale | "auto";
/** Looks up one string. */
export type Translate = (key: StringKey, params?: Readonly<Record<string, string | number>>) => string;

/** Every string table by locale. */
export const STRING_TABLES: Readonly<Record<OverlayLocale, Readonly<Record<StringKey, string>>>> = { en, "zh-CN": zhCN };

/** Resolves `auto` against the browser's language list; unknown values fall back to English. */
export function resolveLocale(option: OverlayLocaleOption | undefined, languages: readonly string[]): OverlayLocale {
  if (option === "en" || option === "zh-CN") return option;
  for (const lang of languages) {
    const l = lang.toLowerCase();
    if (l.startsWith("zh")) return "zh-CN";
    if (l.startsWith("en")) return "en";
  }
  return "en";
}

/** A translator for `locale`. */
export function translator(locale: OverlayLocale): Translate {
  const table = STRING_TABLES[locale];
  return (key, params) => {
    const raw = table[key] ?? en[key] ?? key;
    if (params === undefined) return raw;
    return raw.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };
}

export type { StringKey };
