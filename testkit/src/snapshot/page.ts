//! The page record: identity, URL and route (secrets dropped), title, readiness, viewport (layout
//! viewport CSS px; DPR and visual viewport separate), document size, scroll, language, theme.
import type { PageRecord } from "../protocol";
import type { Platform } from "../platform";
import { sanitizeUrl, scrubSecrets } from "../privacy/redact";
import { truncateUtf8 } from "../util/utf8";
import { round2 } from "./geometry";

/** Inputs of {@link pageRecordOf}. */
export interface PageInput {
  pageId: string;
  win: Window;
  platform: Platform;
  ready: boolean;
  stringBytes: number;
}

/** The route: path plus a hash route ("#/…") when the app uses hash routing. */
export function routeOf(loc: Location): string {
  const hash = loc.hash.startsWith("#/") ? loc.hash : "";
  return loc.pathname + hash;
}

/** Builds the page record. */
export function pageRecordOf(input: PageInput): PageRecord {
  const { win, platform } = input;
  const doc = win.document;
  const v = platform.viewport();
  const rootScheme = doc.documentElement.getAttribute("data-theme") ?? doc.documentElement.style.colorScheme;
  const theme = rootScheme === "dark" || (rootScheme !== "light" && platform.prefersDark()) ? "dark" : "light";
  const page: PageRecord = {
    id: input.pageId,
    url: truncateUtf8(sanitizeUrl(win.location.href), input.stringBytes),
    route: truncateUtf8(scrubSecrets(routeOf(win.location)), input.stringBytes),
    title: truncateUtf8(scrubSecrets(doc.title), input.stringBytes),
    ready: input.ready,
    viewport: { width: round2(v.width), height: round2(v.height), dpr: v.dpr },
    document: { width: round2(v.docWidth), height: round2(v.docHeight) },
    scroll: { x: round2(v.scrollX), y: round2(v.scrollY) },
    language: doc.documentElement.lang || (typeof navigator !== "undefined" ? navigator.language : "") || "",
    theme,
  };
  if (v.visual !== undefined) {
    page.viewport.visual = {
      x: round2(v.visual.x),
      y: round2(v.visual.y),
      width: round2(v.visual.width),
      height: round2(v.visual.height),
      scale: v.visual.scale,
    };
  }
  return page;
}
