// Differential test of record reuse: a bridge that reuses unchanged records and one that rebuilds
// every record observe the same page through random mutations (text, attributes, ids, labels,
// inserts, moves, removals, properties no mutation reports, focus, registrations, shadow roots).
// After every step both must report the same records and the same diff, with node ids compared
// by the element they name.
import { afterEach, describe, expect, it } from "vitest";
import { fakePlatform } from "../testing/fakePlatform";
import { allElements, createTwin, elementIndex, nodeIdOf, normalizedNodes, twinStep, type Twin } from "../testing/twins";
import type { SnapshotRequest } from "../protocol";

/** A small seeded PRNG (mulberry32) so failures replay. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PAGE = `
  <style>.plain { visibility: hidden } .plain .plain { visibility: visible } .gone { display: none }</style>
  <main id="app">
    <h1>Title <span>sub</span></h1>
    <form>
      <label for="u">User</label><input id="u" data-testid="user" placeholder="you">
      <label>Pw <input type="password" name="pw"></label>
      <select><option>One</option><option selected>Two</option></select><textarea>hi</textarea>
      <fieldset><legend>Group</legend><input type="checkbox" id="c"><label for="c">Check</label></fieldset>
    </form>
    <ul><li>One</li><li>Two <b>bold</b></li><li id="dup">Three</li></ul>
    <div id="dup"><button>Go</button><button>Go</button></div>
    <p id="lbl">Label text</p><div role="button" aria-labelledby="lbl">x</div>
    <div class="private"><span>secret</span><button>hidden action</button></div>
    <section aria-label="Region"><a href="/x">Link <i>it</i></a><div tabindex="0">Focusable</div></section>
    <details><summary>More</summary><p>Body</p></details>
    <div style="overflow:auto"><p>scroll</p><p>more</p></div>
    <my-widget>custom</my-widget>
  </main>`;

const TAGS = ["div", "span", "button", "a", "input", "label", "li", "p", "h2", "section", "b", "img", "textarea", "select", "fieldset", "legend"];
const WORDS = ["alpha", "beta", "gamma", "  spaced  out ", "Go", "One", "", "x\ny"];
const IDS = ["dup", "u", "c", "lbl", "fresh", "other"];
const ATTRS: Array<[string, string[]]> = [
  ["class", ["private", "plain", "gone", ""]],
  ["data-secret", [""]],
  ["role", ["button", "link", "heading", "presentation", "listitem"]],
  ["data-testid", ["t1", "t2"]],
  ["aria-label", ["Named", "Other name"]],
  ["title", ["Tip"]],
  ["placeholder", ["Type here"]],
  ["href", ["/a", "/b"]],
  ["tabindex", ["0", "-1"]],
  ["hidden", [""]],
  ["style", ["display:none", "visibility:hidden", "overflow:auto", ""]],
  ["aria-labelledby", ["lbl", "dup", "u"]],
  ["for", ["u", "c", "fresh"]],
  ["id", IDS],
  ["disabled", [""]],
  ["aria-expanded", ["true", "false"]],
  ["aria-checked", ["true", "mixed"]],
  ["contenteditable", ["true", "false"]],
  ["type", ["checkbox", "text", "submit", "hidden"]],
  ["alt", ["Picture", ""]],
  ["name", ["email", "password"]],
];

let sides: Twin[] = [];

afterEach(() => {
  for (const s of sides) s.bridge.dispose();
  sides = [];
  document.body.innerHTML = "";
});

function run(seed: number, steps: number, redact: string[]): void {
  document.body.innerHTML = PAGE;
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const { platform } = fakePlatform(window);
  const cached = createTwin(true, platform, redact);
  const fresh = createTwin(false, platform, redact);
  sides = [cached, fresh];
  const unregister: Array<() => void> = [];
  let counter = 0;
  const log: string[] = [];

  const ops: Array<() => string> = [
    () => {
      const el = pick(allElements(document.body));
      el.textContent = pick(WORDS);
      return `text ${el.localName}`;
    },
    () => {
      const texts = allElements(document.body).flatMap((e) => Array.from(e.childNodes).filter((n): n is Text => n.nodeType === 3));
      if (texts.length === 0) return "no text";
      const t = pick(texts);
      t.data = pick(WORDS);
      return `data in ${t.parentElement?.localName ?? "?"}`;
    },
    () => {
      const el = pick(allElements(document.body));
      const [name, values] = pick(ATTRS);
      el.setAttribute(name, pick(values));
      return `set ${name} on ${el.localName}`;
    },
    () => {
      const el = pick(allElements(document.body));
      const [name] = pick(ATTRS);
      el.removeAttribute(name);
      return `remove ${name} from ${el.localName}`;
    },
    () => {
      const existing = allElements(document.body);
      if (existing.length > 90) return "big enough";
      const parent = pick([document.body, ...existing]);
      const el = document.createElement(pick(TAGS));
      if (random() < 0.4) el.id = pick(IDS);
      if (random() < 0.6) el.textContent = pick(WORDS);
      if (el.localName === "label" && random() < 0.5) el.setAttribute("for", pick(IDS));
      if (el.localName === "select") el.innerHTML = "<option>A</option><option>B</option>";
      const before = random() < 0.5 ? null : pick([null, ...Array.from(parent.children)]);
      parent.insertBefore(el, before);
      return `insert ${el.localName} into ${parent.localName}`;
    },
    () => {
      const list = allElements(document.body).filter((e) => e.isConnected && e.getRootNode() === document);
      if (list.length < 8) return "too small";
      const el = pick(list);
      el.remove();
      return `remove ${el.localName}`;
    },
    () => {
      const list = allElements(document.body).filter((e) => e.getRootNode() === document);
      const el = pick(list);
      const target = pick([document.body, ...list]);
      if (el.contains(target)) return "no move";
      target.insertBefore(el, random() < 0.5 ? null : target.firstElementChild);
      return `move ${el.localName} into ${target.localName}`;
    },
    () => {
      // Properties no mutation reports.
      const controls = allElements(document.body).filter((e) => e.localName === "input" || e.localName === "textarea" || e.localName === "option");
      if (controls.length === 0) return "no control";
      const el = pick(controls);
      if (el.localName === "option") (el as HTMLOptionElement).selected = !(el as HTMLOptionElement).selected;
      else if ((el as HTMLInputElement).type === "checkbox") (el as HTMLInputElement).checked = !(el as HTMLInputElement).checked;
      else (el as HTMLInputElement).value = pick(WORDS);
      return `property of ${el.localName}`;
    },
    () => {
      const focusable = allElements(document.body).filter((e) => e instanceof HTMLElement && (e.tabIndex >= 0 || e.localName === "input" || e.localName === "button"));
      if (focusable.length === 0) return "nothing focusable";
      const el = pick(focusable) as HTMLElement;
      el.focus();
      return `focus ${el.localName}`;
    },
    () => {
      if (unregister.length > 0 && random() < 0.4) {
        (unregister.pop() as () => void)();
        return "unregister";
      }
      const el = pick(allElements(document.body));
      counter += 1;
      const id = `b${counter}`;
      const line = 1 + Math.floor(random() * 50);
      const boundary = random() < 0.5;
      const offs = sides.map((s) =>
        boundary
          ? s.bridge.registerBoundary({ id, name: "Box", source: { file: "src/Box.tsx", line }, roots: () => [el] })
          : s.bridge.registerSource({ id, framework: "test", elements: () => [el], source: { file: "src/Item.tsx", line } }),
      );
      unregister.push(() => offs.forEach((off) => off()));
      return `register ${id} on ${el.localName}`;
    },
    () => {
      // Ids decide css anchors (unique ids only), labels and aria-labelledby targets.
      const el = pick(allElements(document.body));
      if (random() < 0.3) el.removeAttribute("id");
      else el.id = pick(IDS);
      return `id on ${el.localName}`;
    },
    () => {
      const hosts = allElements(document.body).filter((e) => (e.localName === "div" || e.localName === "section") && e.shadowRoot === null);
      if (hosts.length === 0) return "no host";
      const host = pick(hosts);
      const root = host.attachShadow({ mode: "open" });
      root.innerHTML = `<button>Shadow ${pick(WORDS)}</button><span id="dup">in shadow</span><slot></slot>`;
      return `shadow on ${host.localName}`;
    },
  ];

  for (let i = 0; i < steps; i++) {
    const n = 1 + Math.floor(random() * 3);
    for (let k = 0; k < n; k++) {
      // A text op on an ancestor can wipe most of the page; grow it back.
      if (allElements(document.body).length < 12) {
        document.body.insertAdjacentHTML("beforeend", PAGE);
        log.push(`${i}: refill`);
      }
      log.push(`${i}: ${(pick(ops) as () => string)()}`);
    }
    const index = elementIndex();
    const roll = random();
    let request: SnapshotRequest = {};
    if (roll < 0.2) request = { detail: "scoped" };
    else if (roll < 0.3) {
      const el = pick(allElements(document.body).filter((e) => e.getRootNode() === document));
      const id = nodeIdOf(cached, el);
      const freshId = nodeIdOf(fresh, el);
      if (id !== undefined && freshId !== undefined) {
        const a = cached.bridge.snapshot({ scope: { kind: "node", nodeId: id } });
        const b = fresh.bridge.snapshot({ scope: { kind: "node", nodeId: freshId } });
        expect(normalizedNodes(cached, a), log.join("\n")).toEqual(normalizedNodes(fresh, b));
      }
    }
    const { changedElements: _a, ...a } = twinStep(cached, request, index);
    const { changedElements: _b, ...b } = twinStep(fresh, request, index);
    expect(a, log.join("\n")).toEqual(b);
  }
}

describe("record reuse", () => {
  it.each([1, 2, 3, 4])("matches rebuilt records and diffs through random changes (seed %i)", (seed) => {
    run(seed, 50, [".private", "[data-secret] b"]);
  }, 30_000);
  it.each([5, 6, 7, 8])("matches rebuilt records and diffs without redaction selectors (seed %i)", (seed) => {
    run(seed, 50, []);
  }, 30_000);
});
