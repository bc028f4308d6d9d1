// A3S Test target resolver and page observer (docs/acl.md §3, §8, §9).
//
// Evaluated per call as `(SOURCE)(REQUEST)` in the top document of the current tab; nothing is
// installed or persisted in the page and no element handle outlives the call. One accessible-name
// computation (`accName`) serves role/label resolution and every expectation, so resolution and
// assertions can never disagree about what an element is called. It and the role computation are
// not written here: they live in the Test Kit (testkit/src/a11y, TypeScript), whose bundle
// (a11y.generated.js, defining `A3S_A11Y`) the driver places ahead of this function (script.rs).
//
// Page content is untrusted: it is only ever read and reported back as data. What it reports is
// private-aware (privacy.js, `A3S_PRIVATE`, also placed ahead by the driver): resolution and
// assertions read every value and text, but a message, a locator or a text this function returns
// never carries the value of a private control or the text of a redacted region.
(function (req, element) {
  'use strict';
  // A suite's `clock` replaces the page's timers (clock.js); the driver's own waits keep the
  // real ones, which it leaves under this symbol, so a paused clock never stalls a step.
  const REAL = globalThis[Symbol.for('a3s-test.real-timers')];
  const setTimeout = REAL ? REAL.setTimeout : globalThis.setTimeout.bind(globalThis);
  const clearTimeout = REAL ? REAL.clearTimeout : globalThis.clearTimeout.bind(globalThis);
  const requestAnimationFrame = REAL
    ? REAL.requestAnimationFrame
    : globalThis.requestAnimationFrame.bind(globalThis);
  const perfNow = REAL ? REAL.now : () => performance.now();

  const { accName, childNodesComposed, hiddenFromA11y, inputType, norm, parentComposed, rendered, roleOf, styleOf } = A3S_A11Y;
  const P = A3S_PRIVATE;
  const REDACTED = P.marker;
  const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  const C = {
    text: 'test.assert.text_mismatch',
    url: 'test.assert.url_mismatch',
    notVisible: 'test.assert.not_visible',
    notHidden: 'test.assert.not_hidden',
    notInViewport: 'test.assert.not_in_viewport',
    notReachable: 'test.assert.not_pointer_reachable',
    rendered: 'test.assert.rendered_text_mismatch',
    count: 'test.assert.count_mismatch',
    value: 'test.assert.value_mismatch',
    selection: 'test.assert.selection_mismatch',
    state: 'test.assert.state_mismatch',
    layout: 'test.assert.layout_mismatch',
    coverage: 'test.assert.coverage_mismatch',
    notFound: 'test.driver.web.target_not_found',
    frame: 'test.driver.web.frame_unavailable',
    ambiguous: 'test.driver.web.target_ambiguous',
  };

  class Fail extends Error {
    constructor(kind, message) {
      super(message);
      this.kind = kind;
    }
  }

  // ---------------------------------------------------------------- documents and frames

  function currentDocument() {
    let doc = document;
    for (const sel of req.frames || []) {
      let frame = null;
      try {
        frame = doc.querySelector(sel);
      } catch (e) {
        throw new Fail('selector', `invalid CSS selector ${JSON.stringify(sel)}`);
      }
      if (!frame || (frame.tagName !== 'IFRAME' && frame.tagName !== 'FRAME')) {
        throw new Fail('frame', `no iframe matches css(${JSON.stringify(sel)}) any more`);
      }
      let inner = null;
      try {
        inner = frame.contentDocument;
      } catch (e) {
        inner = null;
      }
      if (!inner) {
        throw new Fail('frame', `the iframe css(${JSON.stringify(sel)}) is cross-origin or has no document`);
      }
      doc = inner;
    }
    return doc;
  }

  const winOf = (el) => el.ownerDocument.defaultView || window;

  // The Test Kit Review Overlay's host element. What it holds is the reviewer's, never the
  // page's: no target resolves inside it, no text of it is page text, and the driver refuses to
  // point or type into it (docs/agent.md "The Review Overlay is the reviewer's").
  const REVIEW_OVERLAY = 'A3S-REVIEW-OVERLAY';

  function inReviewOverlay(node) {
    for (let n = node; n; n = parentComposed(n)) {
      if (n.tagName === REVIEW_OVERLAY) return true;
    }
    return false;
  }

  function allElements(root) {
    const out = [];
    const visit = (node) => {
      for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
        if (c.tagName === REVIEW_OVERLAY) continue;
        out.push(c);
        if (c.shadowRoot) visit(c.shadowRoot);
        visit(c);
      }
    };
    visit(root);
    return out;
  }

  // ---------------------------------------------------------------- visibility and state

  function isVisible(el) {
    if (!rendered(el)) return false;
    if (el.tagName === 'OPTION' || el.tagName === 'OPTGROUP') return true;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  function isDisabled(el) {
    try {
      if (el.matches(':disabled')) return true;
    } catch (e) {
      /* not a form element */
    }
    for (let n = el; n; n = parentComposed(n)) {
      if (n.getAttribute && n.getAttribute('aria-disabled') === 'true') return true;
    }
    return false;
  }

  const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'url', 'tel', 'email', 'password', 'number']);
  const SET_VALUE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

  function isEditable(el) {
    if (el.tagName === 'TEXTAREA') return !el.readOnly;
    if (el.tagName === 'INPUT') {
      const t = inputType(el);
      return (TEXT_INPUT_TYPES.has(t) || SET_VALUE_TYPES.has(t)) && !el.readOnly;
    }
    if (el.isContentEditable) return true;
    return false;
  }

  // ---------------------------------------------------------------- roles and names

  // Roles, accessible names and A11y-hiddenness come from the shared module (a11y.generated.js,
  // built from testkit/src/a11y), destructured at the top of this function.

  // ---------------------------------------------------------------- rendered text

  const SKIP_TEXT = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'TITLE']);

  // Visible text of the composed subtree; when `index` is given, records each element's text.
  // With `redact`, a redacted region reads as the marker (what may be reported).
  function textOf(node, index, redact) {
    let out = '';
    const visit = (n, visible) => {
      if (n.nodeType === 3) {
        if (visible) out += n.data;
        return;
      }
      if (n.nodeType !== 1) {
        for (const k of n.childNodes) visit(k, visible);
        return;
      }
      if (SKIP_TEXT.has(n.tagName) || n.tagName === REVIEW_OVERLAY) return;
      if (redact && P.matchesRegion(n)) {
        if (visible) out += ` ${REDACTED} `;
        return;
      }
      const s = styleOf(n);
      if (s.display === 'none') return;
      if (s.display !== 'contents' && typeof n.checkVisibility === 'function' && !n.checkVisibility()) return;
      if (n.tagName === 'BR') {
        out += '\n';
        return;
      }
      const block = s.display !== 'contents' && !s.display.startsWith('inline');
      const start = out.length;
      if (block) out += ' ';
      const vis = s.visibility === 'visible';
      for (const k of childNodesComposed(n)) visit(k, vis);
      if (block) out += ' ';
      if (index) index.set(n, out.slice(start));
    };
    visit(node, true);
    return out;
  }

  const visibleText = (el) => norm(textOf(el, null, false));

  // The visible text of `el` as it may be reported: a redacted region's text is the marker.
  const shownText = (el) => (P.region(el) ? REDACTED : norm(textOf(el, null, true)));

  // The accessible name of `el` as it may be reported: the marker for an element inside a
  // redacted region, or one whose name could come from a region inside it.
  function shownName(el) {
    const name = accName(el).name;
    if (!name) return '';
    return P.level(el) === 'hidden' || P.holdsRegion(el) ? REDACTED : name;
  }

  // ---------------------------------------------------------------- resolution

  // A predicate on page text for a locator's text match (`TextMatch`): both sides
  // whitespace-normalised; `contains` case-insensitive, `exact` whole and case-sensitive,
  // `regex` a JavaScript RegExp tested against the normalised text.
  function textMatcher(m) {
    switch (m.match) {
      case 'exact': {
        const want = norm(m.value);
        return (s) => norm(s) === want;
      }
      case 'contains': {
        const want = norm(m.value).toLowerCase();
        return (s) => norm(s).toLowerCase().includes(want);
      }
      case 'regex': {
        let re;
        try {
          re = new RegExp(m.pattern, m.flags);
        } catch (e) {
          throw new Fail('selector', `invalid regular expression /${m.pattern}/${m.flags}: ${e.message}`);
        }
        return (s) => re.test(norm(s));
      }
      default:
        throw new Fail('unsupported', `unknown text match ${m.match}`);
    }
  }

  function byText(all, root, matches) {
    const index = new Map();
    textOf(root, index);
    const found = [];
    for (const el of all) {
      if (SKIP_TEXT.has(el.tagName) || el.tagName === 'HTML' || el.tagName === 'BODY') continue;
      const t = index.get(el);
      if (t === undefined) continue;
      if (matches(t)) found.push(el);
    }
    // Keep the deepest matches: an ancestor of a match is not itself a match.
    const hasMatchBelow = new Set();
    for (const el of found) {
      for (let p = parentComposed(el); p; p = parentComposed(p)) {
        if (hasMatchBelow.has(p)) break;
        hasMatchBelow.add(p);
      }
    }
    return found.filter((el) => !hasMatchBelow.has(el) && !hiddenFromA11y(el));
  }

  const LABELABLE_ROLES = new Set([
    'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch', 'slider',
    'spinbutton',
  ]);

  // The open shadow roots under `root`, nested ones included (closed roots are invisible to
  // page script, so `css()` cannot enter them either).
  function openShadowRoots(root) {
    const out = [];
    const doc = root.ownerDocument || root;
    const visit = (node) => {
      const walker = doc.createTreeWalker(node, NodeFilter.SHOW_ELEMENT);
      for (let el = walker.nextNode(); el; el = walker.nextNode()) {
        if (el.shadowRoot && el.tagName !== REVIEW_OVERLAY) {
          out.push(el.shadowRoot);
          visit(el.shadowRoot);
        }
      }
    };
    if (root.shadowRoot && root.tagName !== REVIEW_OVERLAY) {
      out.push(root.shadowRoot);
      visit(root.shadowRoot);
    }
    visit(root);
    return out;
  }

  // `css()`: the selector in `scope` and in every open shadow root under it, in document order.
  function byCss(scope, selector) {
    const roots = [scope, ...openShadowRoots(scope)];
    const found = [];
    try {
      for (const r of roots) for (const el of r.querySelectorAll(selector)) found.push(el);
    } catch (e) {
      throw new Fail('selector', `invalid CSS selector ${JSON.stringify(selector)}`);
    }
    const kept = found.filter((el) => !inReviewOverlay(el));
    if (roots.length === 1 || kept.length < 2) return kept;
    // Matches from several trees: put them in the composed tree's order.
    const set = new Set(kept);
    return allElements(scope).filter((el) => set.has(el));
  }

  // Among `els`, the ones no other of them contains (so a search inside each finds each element
  // once, in document order).
  function outermost(els) {
    const set = new Set(els);
    return els.filter((el) => {
      for (let p = parentComposed(el); p; p = parentComposed(p)) if (set.has(p)) return false;
      return true;
    });
  }

  // The elements `target` names inside `scope` (a document, or an element whose descendants
  // are searched), in document order.
  function resolveIn(scope, target) {
    switch (target.by) {
      case 'css':
        return byCss(scope, target.selector);
      case 'test_id':
        return allElements(scope).filter((el) => el.getAttribute('data-testid') === target.test_id);
      case 'role': {
        const role = String(target.role).toLowerCase();
        const named = target.name == null ? null : textMatcher(target.name);
        return allElements(scope).filter(
          (el) => roleOf(el) === role && !hiddenFromA11y(el) && (named === null || named(accName(el).name)),
        );
      }
      case 'label': {
        const named = textMatcher(target.label);
        return allElements(scope).filter((el) => {
          const labelable =
            ['INPUT', 'SELECT', 'TEXTAREA', 'METER', 'PROGRESS', 'OUTPUT'].includes(el.tagName) ||
            LABELABLE_ROLES.has(roleOf(el)) ||
            el.isContentEditable;
          if (!labelable || (el.tagName === 'INPUT' && inputType(el) === 'hidden')) return false;
          if (hiddenFromA11y(el)) return false;
          const n = accName(el);
          return ['labelledby', 'aria-label', 'label'].includes(n.source) && named(n.name);
        });
      }
      case 'placeholder': {
        const named = textMatcher(target.placeholder);
        return allElements(scope).filter(
          (el) =>
            (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') &&
            el.hasAttribute('placeholder') &&
            named(el.getAttribute('placeholder')) &&
            !hiddenFromA11y(el),
        );
      }
      case 'text': {
        const root = scope.nodeType === 9 ? scope.documentElement || scope : scope;
        return byText(allElements(scope), root, textMatcher(target.text));
      }
      case 'within': {
        const out = [];
        for (const outer of outermost(resolveIn(scope, target.outer))) {
          for (const el of resolveIn(outer, target.inner)) out.push(el);
        }
        return out;
      }
      case 'nth': {
        const m = resolveIn(scope, target.target);
        const i = target.index < 0 ? m.length + target.index : target.index;
        return i >= 0 && i < m.length ? [m[i]] : [];
      }
      case 'filter': {
        const m = resolveIn(scope, target.target);
        const f = target.filter;
        switch (f.filter) {
          case 'has_text':
          case 'has_not_text': {
            const matches = textMatcher(f.text);
            const want = f.filter === 'has_text';
            return m.filter((el) => matches(visibleText(el)) === want);
          }
          case 'has':
          case 'has_not': {
            const want = f.filter === 'has';
            return m.filter((el) => (resolveIn(el, f.inner).length > 0) === want);
          }
          default:
            throw new Fail('unsupported', `unknown filter ${f.filter}`);
        }
      }
      default:
        throw new Fail('unsupported', `target kind ${target.by} cannot be resolved in the page`);
    }
  }

  const resolve = (target) => resolveIn(currentDocument(), target);

  function describe(el) {
    let s = '<' + el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    s += '>';
    const n = shownName(el) || shownText(el);
    if (n) s += ' ' + JSON.stringify(clip(n, 40));
    return s;
  }

  function strictOne(target) {
    const m = resolve(target);
    if (m.length === 0) return { fail: { code: C.notFound, message: 'no element matches' } };
    if (m.length > 1) {
      const some = m.slice(0, 3).map(describe).join(', ');
      const picks = m.length <= 20 ? picksFor(m) : [];
      return { fail: { code: C.ambiguous, message: `${m.length} elements match (${some}${m.length > 3 ? ', …' : ''})`, picks } };
    }
    return { el: m[0] };
  }

  // ---------------------------------------------------------------- a locator for one element

  // Simple locators that may name `el` alone, most readable first (as Target values).
  // Nothing of a redacted region's text goes into one: a locator is kept in session files and
  // promoted suites.
  function ownLocators(el) {
    const out = [];
    const testid = el.getAttribute('data-testid');
    if (testid) out.push({ by: 'test_id', test_id: testid });
    const role = roleOf(el);
    const hidden = P.level(el) === 'hidden';
    const n = role && !hidden && !P.holdsRegion(el) ? accName(el) : { name: '', source: '' };
    const name = norm(n.name);
    if (role && name) {
      out.push({ by: 'role', role, name: { match: 'contains', value: name } });
      out.push({ by: 'role', role, name: { match: 'exact', value: name } });
      if (['labelledby', 'aria-label', 'label'].includes(n.source)) {
        out.push({ by: 'label', label: { match: 'exact', value: name } });
      }
    }
    const placeholder = hidden ? '' : norm(el.getAttribute('placeholder'));
    if (placeholder && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA')) {
      out.push({ by: 'placeholder', placeholder: { match: 'exact', value: placeholder } });
    }
    const text = shownText(el);
    if (!name && text && text.length <= 80 && !text.includes(REDACTED)) {
      out.push({ by: 'text', text: { match: 'exact', value: text } });
    }
    if (role && !name) out.push({ by: 'role', role, name: null });
    return out;
  }

  // Locators that may name an ancestor `a` of `el`: its test id, its role and name, or its
  // role (or tag) narrowed by the text it shows besides `el`'s (the row text next to a button).
  function anchorsOf(a, el) {
    const out = [];
    const testid = a.getAttribute('data-testid');
    if (testid) out.push({ by: 'test_id', test_id: testid });
    const role = roleOf(a);
    const private_ = P.level(a) === 'hidden' || P.holdsRegion(a);
    const name = role && !private_ ? norm(accName(a).name) : '';
    if (role && name) out.push({ by: 'role', role, name: { match: 'exact', value: name } });
    const own = visibleText(el);
    let rest = private_ ? '' : visibleText(a);
    if (own) rest = norm(rest.split(own).join(' '));
    if (rest) {
      const words = rest.split(' ');
      let text = '';
      for (const w of words) {
        if ((text + ' ' + w).trim().length > 40) break;
        text = (text + ' ' + w).trim();
      }
      if (!text) text = clip(rest, 40);
      const base = role ? { by: 'role', role, name: null } : { by: 'css', selector: a.localName };
      out.push({ by: 'filter', target: base, filter: { filter: 'has_text', text: { match: 'contains', value: text } } });
    }
    return out;
  }

  // The shortest locator that names exactly `el` here and now (a Target value), or null when
  // `el` is no longer in the document. Tried in order: `el`'s own simple locators; the same
  // inside the nearest ancestor an anchor locator finds (`within`), nearest first; then `nth`.
  // Every candidate is checked by resolving it, so what comes back is unique by construction.
  function locatorFor(el) {
    if (!el || !el.isConnected) return null;
    const names = (t) => {
      try {
        const m = resolve(t);
        return m.length === 1 && m[0] === el;
      } catch (e) {
        return false;
      }
    };
    const own = ownLocators(el);
    for (const t of own) if (names(t)) return t;
    const inner = own.length ? own.slice(0, 3) : [{ by: 'css', selector: el.localName }];
    let depth = 0;
    for (let a = parentComposed(el); a && a.nodeType === 1 && depth < 8; a = parentComposed(a), depth += 1) {
      if (a.tagName === 'BODY' || a.tagName === 'HTML') break;
      for (const anchor of anchorsOf(a, el)) {
        for (const i of inner) {
          const t = { by: 'within', outer: anchor, inner: i };
          if (names(t)) return t;
        }
      }
    }
    for (const base of [...inner, { by: 'css', selector: el.localName }]) {
      let m;
      try {
        m = resolve(base);
      } catch (e) {
        continue;
      }
      const i = m.indexOf(el);
      if (i >= 0) return { by: 'nth', target: base, index: i };
    }
    return null;
  }

  // For an ambiguous target: a locator for each of its first matches, so the message can show
  // how to pick one.
  function picksFor(matches) {
    return matches.slice(0, 3).map(locatorFor).filter(Boolean);
  }

  // ---------------------------------------------------------------- geometry

  function topRect(el) {
    const r = el.getBoundingClientRect();
    let x = r.left;
    let y = r.top;
    let w = winOf(el);
    while (w !== window && w.frameElement) {
      const f = w.frameElement;
      const fr = f.getBoundingClientRect();
      const fs = w.parent.getComputedStyle(f);
      x += fr.left + f.clientLeft + parseFloat(fs.paddingLeft || '0');
      y += fr.top + f.clientTop + parseFloat(fs.paddingTop || '0');
      w = w.parent;
    }
    return { x, y, width: r.width, height: r.height };
  }

  const viewport = () => ({ x: 0, y: 0, width: window.innerWidth, height: window.innerHeight });

  function intersect(a, b) {
    const x = Math.max(a.x, b.x);
    const y = Math.max(a.y, b.y);
    const r = Math.min(a.x + a.width, b.x + b.width);
    const bt = Math.min(a.y + a.height, b.y + b.height);
    return { x, y, width: Math.max(0, r - x), height: Math.max(0, bt - y) };
  }

  const round = (n) => Math.round(n * 10) / 10;
  const fmtRect = (r) => `(${round(r.x)}, ${round(r.y)}, ${round(r.width)}×${round(r.height)})`;

  function nextFrame() {
    return new Promise((resolve) => {
      let done = false;
      const fin = () => {
        if (!done) {
          done = true;
          resolve();
        }
      };
      requestAnimationFrame(fin);
      setTimeout(fin, 100);
    });
  }

  function scrollIntoViewIfNeeded(el) {
    const r = topRect(el);
    const v = viewport();
    const inside = r.x >= 0 && r.y >= 0 && r.x + r.width <= v.width && r.y + r.height <= v.height;
    if (inside) return;
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    let w = winOf(el);
    while (w !== window && w.frameElement) {
      w.frameElement.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      w = w.parent;
    }
  }

  // How far inside an edge `drag { edge }` releases: a few pixels, never past a quarter of the
  // box (so a thin target still gets a point on its own side of the middle).
  const EDGE_INSET_PX = 4;

  // The point an action aims at: the centre of the visible part of `rect`, or with `edge`
  // ('top', 'bottom', 'left', 'right') just inside that edge of it, at the middle of the edge.
  function clickPoint(rect, edge) {
    const vis = intersect(rect, viewport());
    const r = vis.width > 0 && vis.height > 0 ? vis : rect;
    const x = r.x + r.width / 2;
    const y = r.y + r.height / 2;
    const dy = Math.min(EDGE_INSET_PX, r.height / 4);
    const dx = Math.min(EDGE_INSET_PX, r.width / 4);
    switch (edge) {
      case 'top': return { x, y: r.y + dy };
      case 'bottom': return { x, y: r.y + r.height - dy };
      case 'left': return { x: r.x + dx, y };
      case 'right': return { x: r.x + r.width - dx, y };
      default: return { x, y };
    }
  }

  function deepActive() {
    let a = document.activeElement;
    for (let i = 0; i < 64 && a; i++) {
      if (a.shadowRoot && a.shadowRoot.activeElement) {
        a = a.shadowRoot.activeElement;
        continue;
      }
      if (a.tagName === 'IFRAME' || a.tagName === 'FRAME') {
        let d = null;
        try {
          d = a.contentDocument;
        } catch (e) {
          d = null;
        }
        if (d && d.activeElement && d.activeElement !== d.body) {
          a = d.activeElement;
          continue;
        }
      }
      break;
    }
    return a;
  }

  function containsComposed(ancestor, node) {
    for (let n = node; n; ) {
      if (n === ancestor) return true;
      const p = parentComposed(n);
      if (p) {
        n = p;
        continue;
      }
      const w = n.ownerDocument && n.ownerDocument.defaultView;
      n = w && w !== window && w.frameElement ? w.frameElement : null;
    }
    return false;
  }

  function deepHit(x, y) {
    let doc = document;
    let hit = doc.elementFromPoint(x, y);
    for (let i = 0; i < 64 && hit; i++) {
      if (hit.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(x, y);
        if (inner && inner !== hit) {
          hit = inner;
          continue;
        }
      }
      if (hit.tagName === 'IFRAME' || hit.tagName === 'FRAME') {
        let d = null;
        try {
          d = hit.contentDocument;
        } catch (e) {
          d = null;
        }
        if (d) {
          const fr = hit.getBoundingClientRect();
          const fs = styleOf(hit);
          x -= fr.left + hit.clientLeft + parseFloat(fs.paddingLeft || '0');
          y -= fr.top + hit.clientTop + parseFloat(fs.paddingTop || '0');
          const inner = d.elementFromPoint(x, y);
          if (inner) {
            doc = d;
            hit = inner;
            continue;
          }
        }
      }
      break;
    }
    return hit;
  }

  // ---------------------------------------------------------------- actionability

  // The checks every action makes of its target: exactly one match, visible, enabled and
  // editable as needed. Returns `{ el }` or a failed status.
  function usable(o) {
    const m = resolve(o.target);
    if (m.length === 0) return { status: 'not_found' };
    if (m.length > 1) return { status: 'ambiguous', count: m.length, candidates: m.slice(0, 3).map(describe) };
    const el = m[0];
    if (!isVisible(el)) return { status: 'not_actionable', reason: 'it is not visible' };
    if (o.enabled && isDisabled(el)) return { status: 'not_actionable', reason: 'it is disabled' };
    if (o.editable && !isEditable(el)) {
      return { status: 'not_actionable', reason: 'it is not an editable text control (or it is read-only)' };
    }
    return { el };
  }

  const sameRect = (a, b) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

  // The point an action aims at: `position` from the top-left corner of the padding box (inside
  // the border, as `MouseEvent.offsetX/Y` count) when the step gives one, else the centre of the
  // visible part (or just inside `edge`).
  function actionPoint(rect, o, el) {
    if (o.position) {
      return { x: rect.x + el.clientLeft + o.position.x, y: rect.y + el.clientTop + o.position.y };
    }
    return clickPoint(rect, o.edge);
  }

  // A `position` outside the target's padding box would press something else by construction.
  // (An inline element has no client box: its border box counts.)
  function positionOutside(o, rect, el) {
    if (!o.position) return null;
    const w = el.clientWidth || rect.width;
    const h = el.clientHeight || rect.height;
    if (o.position.x < w && o.position.y < h) return null;
    return {
      status: 'not_actionable',
      reason: `the position (${o.position.x}, ${o.position.y}) lies outside ${describe(el)}, whose padding box is ${round(w)}×${round(h)}`,
    };
  }

  // A frame element whose document the page cannot read (cross-origin, or not loaded).
  function opaqueFrame(el) {
    if (el.tagName !== 'IFRAME' && el.tagName !== 'FRAME') return false;
    try {
      return !el.contentDocument;
    } catch (e) {
      return true;
    }
  }

  // A pointer event at `p` is delivered to the topmost element there (`deepHit`); the action
  // reaches `el` only when that element is `el` or inside it in the composed tree — or is a
  // label (or inside one) whose control is `el`, which forwards the click. A point inside a
  // cross-origin frame never counts: the event goes to another document, which does not bubble
  // into this one, and its content cannot be looked at. A point over the Review Overlay is
  // refused outright, for every action (`pointer` false: one that does not press here, such as
  // `fill`, is only checked for that). Returns `{ hit }` (the element hit, described; null when
  // not checked) or a failed status naming what is at the point.
  function hitCheck(p, el, pointer, carried) {
    const at = `(${round(p.x)}, ${round(p.y)})`;
    const hit = deepHit(p.x, p.y);
    if (hit && inReviewOverlay(hit)) {
      return {
        status: 'review_overlay',
        element: describe(el),
        reason: `the point ${at} over ${describe(el)} is covered by the Test Kit Review Overlay`,
      };
    }
    if (!pointer) return { hit: null };
    if (!hit) {
      return { status: 'not_actionable', reason: `its point ${at} is outside the viewport` };
    }
    if (hit !== el && opaqueFrame(hit)) {
      return {
        status: 'covered',
        covering: describe(hit),
        reason: `the point ${at} of ${describe(el)} lies in the cross-origin frame ${describe(hit)} ${fmtRect(topRect(hit))}, whose content cannot be checked (the event would go to that frame's document)`,
      };
    }
    // A point in a frame inside the target: the event goes to the frame's document and does not
    // bubble out of it, so the target never sees it (unless the target is that frame).
    if (hit.ownerDocument !== el.ownerDocument) {
      let frame = winOf(hit).frameElement;
      while (frame && frame.ownerDocument !== el.ownerDocument) frame = winOf(frame).frameElement;
      if (frame !== el) {
        return {
          status: 'covered',
          covering: describe(hit),
          reason: `the point ${at} of ${describe(el)} lies in the frame ${frame ? describe(frame) : 'of another document'}, whose document would receive the pointer (${describe(hit)})`,
        };
      }
      return { hit: describe(hit) };
    }
    if (containsComposed(el, hit)) return { hit: describe(hit) };
    if (carried && containsComposed(carried, hit)) return { hit: describe(hit) };
    for (let n = hit; n; n = parentComposed(n)) {
      if (n.tagName === 'LABEL' && n.control === el) return { hit: describe(hit) };
    }
    // `elementFromPoint` stops at a shadow host whose root is closed: say so, so the message does
    // not pretend to know which element inside it would take the event.
    const closed = hit.localName.includes('-') && !hit.shadowRoot;
    return {
      status: 'covered',
      covering: describe(hit),
      reason: `${describe(hit)} ${fmtRect(topRect(hit))} is on top of ${describe(el)} at the point ${at} and would receive the pointer${closed ? ' (a custom element whose shadow root, if closed, cannot be looked into)' : ''}`,
    };
  }

  // The one element `o.carried` names (the source of a drag, which the pointer carries onto
  // the target), or null.
  function carriedBy(o) {
    if (!o.carried) return null;
    const m = resolve(o.carried);
    return m.length === 1 ? m[0] : null;
  }

  async function actionableOnce(o) {
    const u = usable(o);
    if (!u.el) return u;
    const el = u.el;
    scrollIntoViewIfNeeded(el);
    // Stable = the same box in two consecutive frames: this one (layout is current once the
    // rect is read) and the next.
    const a = topRect(el);
    const outside = positionOutside(o, a, el);
    if (outside) return outside;
    if (o.settle === false) {
      // The driver moves the pointer here first and proves stability with `still_there`: the
      // renderer answers the move at its next frame, which then serves as the second frame.
      const p = actionPoint(a, o, el);
      const h = hitCheck(p, el, o.pointer, carriedBy(o));
      if (h.status) return h;
      return { status: 'ok', x: p.x, y: p.y, rect: a, element: describe(el), hit: h.hit };
    }
    await nextFrame();
    if (!el.isConnected) return { status: 'not_actionable', reason: 'it was removed from the page' };
    const b = topRect(el);
    if (!sameRect(a, b)) {
      return { status: 'not_actionable', reason: `it is still moving (${fmtRect(a)} then ${fmtRect(b)})` };
    }
    const p = actionPoint(b, o, el);
    const h = hitCheck(p, el, o.pointer, carriedBy(o));
    if (h.status) return h;
    return { status: 'ok', x: p.x, y: p.y, element: describe(el), hit: h.hit };
  }

  // After `actionable` with `settle: false` and the pointer's move: the same single usable
  // match with the same box one frame later, still the element that receives the pointer at the
  // point (the pointer's arrival may have opened something over it). The move is delivered at
  // the start of that frame, before animation-frame callbacks, so whatever the pointer's
  // arrival changed is seen here.
  async function stillThere(o) {
    await nextFrame();
    const u = usable(o);
    if (!u.el) return u;
    if (!u.el.isConnected) return { status: 'not_actionable', reason: 'it was removed from the page' };
    const b = topRect(u.el);
    if (!sameRect(o.rect, b)) {
      return { status: 'not_actionable', reason: `it is still moving (${fmtRect(o.rect)} then ${fmtRect(b)})` };
    }
    const h = hitCheck(actionPoint(b, o, u.el), u.el, o.pointer);
    if (h.status) return h;
    return { status: 'ok', hit: h.hit };
  }

  async function actionable(o) {
    const start = perfNow();
    for (;;) {
      const last = await actionableOnce(o);
      if (last.status === 'ok' || perfNow() - start >= o.budget_ms) return last;
      await nextFrame();
    }
  }

  // ---------------------------------------------------------------- candidates of a failed target

  // What the resolver saw for a target a step could not act on (the trace of a failed step):
  // each match with every reason it is not actionable now, or — when nothing matches — the near
  // misses (the same role under another name, the matches a `within`, `nth` or filter left out)
  // and why each was not taken. Read-only: nothing is scrolled, focused or dispatched. Names are
  // the private-aware ones (`describe`, `shownName`).
  const MAX_CANDIDATES = 10;

  const why = (reason, detail) => ({ reason, detail });

  function whyNot(el, o, count) {
    const out = [];
    if (count > 1) out.push(why('ambiguous', `one of ${count} matches`));
    if (!el.isConnected) return out.concat(why('removed', 'it was removed from the page'));
    if (!isVisible(el)) return out.concat(why('hidden', 'it is not visible'));
    if (o.enabled && isDisabled(el)) out.push(why('disabled', 'it is disabled'));
    if (o.editable && !isEditable(el)) {
      out.push(why('not_editable', 'it is not an editable text control (or it is read-only)'));
    }
    if (o.pointer) {
      const r = topRect(el);
      const seen = intersect(r, viewport());
      if (seen.width <= 0 || seen.height <= 0) {
        out.push(why('outside_viewport', `it lies outside the viewport at ${fmtRect(r)}`));
      } else {
        const h = hitCheck(clickPoint(r), el, true, null);
        if (h.status) out.push(why(h.status === 'covered' ? 'covered' : 'not_actionable', h.reason));
      }
    }
    return out;
  }

  const quotedName = (el) => JSON.stringify(clip(shownName(el), 60));

  // Elements close to `target` that it does not name, with why not.
  function nearMisses(target) {
    const all = () => allElements(currentDocument());
    switch (target.by) {
      case 'role': {
        const role = String(target.role).toLowerCase();
        const named = target.name == null ? null : textMatcher(target.name);
        return all()
          .filter((el) => roleOf(el) === role)
          .map((el) =>
            hiddenFromA11y(el)
              ? [el, why('hidden_from_accessibility', 'it is hidden from the accessibility tree')]
              : [el, why('other_name', named ? `its name is ${quotedName(el)}` : 'it was not taken')],
          );
      }
      case 'label':
      case 'placeholder': {
        const attr = target.by === 'placeholder';
        return all()
          .filter((el) => (attr ? el.hasAttribute('placeholder') : ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)))
          .filter((el) => !(el.tagName === 'INPUT' && inputType(el) === 'hidden'))
          .map((el) => [
            el,
            attr && P.level(el) !== 'hidden'
              ? why('other_name', `its placeholder is ${JSON.stringify(clip(el.getAttribute('placeholder'), 60))}`)
              : why('other_name', `its label is ${quotedName(el)}`),
          ]);
      }
      case 'test_id':
        return all()
          .filter((el) => el.hasAttribute('data-testid'))
          .map((el) => [el, why('other_name', `its test id is ${JSON.stringify(clip(el.getAttribute('data-testid'), 60))}`)]);
      case 'within': {
        const outer = resolve(target.outer);
        if (outer.length === 0) return nearMisses(target.outer);
        return resolve(target.inner).map((el) => [el, why('outside_scope', `it is not inside ${describe(outer[0])}`)]);
      }
      case 'nth': {
        const m = resolve(target.target);
        return m.map((el, i) => [el, why('other_index', `it is match ${i} of ${m.length}; index ${target.index} was asked`)]);
      }
      case 'filter': {
        const m = resolve(target.target);
        return m.map((el) => [el, why('filtered_out', `the ${target.filter.filter} filter left it out`)]);
      }
      default:
        return [];
    }
  }

  function candidates(o) {
    const m = resolve(o.target);
    const seen = m.length > 0 ? m.map((el) => [el, whyNot(el, o, m.length)]) : nearMisses(o.target).map(([el, w]) => [el, [w]]);
    return {
      matches: m.length,
      total: seen.length,
      candidates: seen.slice(0, MAX_CANDIDATES).map(([el, reasons]) => ({ element: describe(el), reasons })),
    };
  }

  // ---------------------------------------------------------------- page fingerprint

  // A fingerprint of what the page's outline is read from (the step trace, `web/src/trace.rs`):
  // the URL and title, every element of the composed tree (open shadow roots, same-origin
  // frames) with its attributes and whether it renders, text, form state and the focused
  // element. Two equal fingerprints mean the outline would read the same, so the trace can
  // reuse an outline instead of reading the accessibility tree again. Nothing private goes in:
  // a sensitive control's value and a redacted region's content are left out (the outline
  // shows the marker for them too), so the hash cannot be searched for a secret.
  function pageHash() {
    let a = 0x811c9dc5 | 0;
    let b = 0x9747b28c | 0;
    const feed = (str) => {
      const t = String(str);
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x5bd1e995);
      }
      a = Math.imul(a ^ 0x1f, 0x01000193);
      b = Math.imul(b ^ (b >>> 15), 0x5bd1e995);
    };
    // Whether any element is private (a redacted region or a sensitive control): a superset
    // of what `privateElements` lists (it skips the Review Overlay and frames), so a page
    // without one needs no separate private-element query before its image.
    let priv = false;
    const focused = deepActive();
    const renders = (el) =>
      typeof el.checkVisibility === 'function'
        ? el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })
        : el.getClientRects().length > 0;
    const visit = (parent) => {
      for (let n = parent.firstChild; n; n = n.nextSibling) {
        if (n.nodeType === 3) {
          feed(n.data);
          continue;
        }
        if (n.nodeType !== 1) continue;
        feed('<' + n.localName);
        if (P.matchesRegion(n)) {
          priv = true;
          feed(REDACTED);
          continue;
        }
        if (!priv && P.sensitive(n)) priv = true;
        for (const attr of n.attributes) {
          if (attr.name === 'value' && P.sensitive(n)) continue;
          feed(attr.name + '=' + attr.value);
        }
        feed(renders(n) ? 'r' : 'h');
        if (n === focused) feed('focus');
        if (n.localName === 'input' || n.localName === 'textarea' || n.localName === 'select') {
          feed(P.sensitive(n) ? REDACTED : n.value);
          feed(n.checked ? 'c' : '-');
          feed(n.disabled ? 'd' : '-');
          if (n.localName === 'select') feed(Array.from(n.options, (o) => (o.selected ? '1' : '0')).join(''));
        }
        if (n.open === true) feed('open');
        if (n.shadowRoot) visit(n.shadowRoot);
        if (n.localName === 'iframe' || n.localName === 'frame') {
          let d = null;
          try {
            d = n.contentDocument;
          } catch (e) {
            d = null;
          }
          if (d) {
            feed(d.URL);
            visit(d);
          }
        }
        visit(n);
        feed('>');
      }
    };
    feed(document.URL);
    feed(document.title);
    visit(document);
    const hex = (x) => (x >>> 0).toString(16).padStart(8, '0');
    // The visible part of the page in CSS px, read in the same pass: a trace screenshot clips
    // to it without a `Page.getLayoutMetrics` round trip of its own.
    const vv = window.visualViewport;
    const view = vv ? { x: vv.pageLeft, y: vv.pageTop, width: vv.width, height: vv.height } : null;
    return { hash: hex(a) + hex(b), private: priv, view };
  }

  // ---------------------------------------------------------------- observations (§8, §9)

  const pass = (detail) => ({ pass: true, detail: detail || '' });
  const fail = (code, message) => ({ pass: false, code, message });

  function checkable(el) {
    if (el.tagName === 'INPUT' && ['checkbox', 'radio'].includes(inputType(el))) {
      return { checkable: true, checked: el.checked };
    }
    const role = roleOf(el);
    if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) {
      return { checkable: true, checked: el.getAttribute('aria-checked') === 'true' };
    }
    return { checkable: false, checked: false };
  }

  function tri(el, attr) {
    const v = el.getAttribute(attr);
    return v === 'true' ? true : v === 'false' ? false : null;
  }

  // [holds, what the element is] for an inline state.
  function stateOf(el, state) {
    const bool = (b, yes, no) => [b, b ? yes : no];
    switch (state) {
      case 'enabled':
      case 'disabled': {
        const d = isDisabled(el);
        return [state === 'disabled' ? d : !d, d ? 'disabled' : 'enabled'];
      }
      case 'checked':
      case 'unchecked': {
        const c = checkable(el);
        if (!c.checkable) return [false, 'not checkable'];
        return bool(state === 'checked' ? c.checked : !c.checked, state, c.checked ? 'checked' : 'unchecked');
      }
      case 'selected':
      case 'unselected': {
        let s = null;
        if (el.tagName === 'OPTION') s = el.selected;
        else s = tri(el, 'aria-selected');
        if (s === null) return [false, 'not selectable'];
        return [state === 'selected' ? s : !s, s ? 'selected' : 'unselected'];
      }
      case 'focused':
      case 'unfocused': {
        const f = deepActive() === el;
        return [state === 'focused' ? f : !f, f ? 'focused' : 'unfocused'];
      }
      case 'focus_within':
      case 'focus_outside': {
        const a = deepActive();
        const w = !!a && containsComposed(el, a);
        return [state === 'focus_within' ? w : !w, w ? 'focus within' : 'focus outside'];
      }
      case 'expanded':
      case 'collapsed': {
        let e = tri(el, 'aria-expanded');
        if (e === null && el.tagName === 'DETAILS') e = el.open;
        if (e === null && el.tagName === 'SUMMARY' && el.parentElement && el.parentElement.tagName === 'DETAILS') {
          e = el.parentElement.open;
        }
        if (e === null) return [false, 'not expandable (no aria-expanded)'];
        return [state === 'expanded' ? e : !e, e ? 'expanded' : 'collapsed'];
      }
      case 'pressed':
      case 'unpressed': {
        const p = tri(el, 'aria-pressed');
        if (p === null) return [false, 'not a toggle button (no aria-pressed)'];
        return [state === 'pressed' ? p : !p, p ? 'pressed' : 'unpressed'];
      }
      case 'readonly':
      case 'writable': {
        let ro;
        if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') ro = el.readOnly || isDisabled(el);
        else if (el.isContentEditable) ro = false;
        else if (tri(el, 'aria-readonly') !== null) ro = tri(el, 'aria-readonly');
        else if (el.tagName === 'SELECT') ro = isDisabled(el);
        else return [false, 'not an editable control'];
        return [state === 'readonly' ? ro : !ro, ro ? 'readonly' : 'writable'];
      }
      case 'required':
      case 'optional': {
        const r = !!el.required || el.getAttribute('aria-required') === 'true';
        return [state === 'required' ? r : !r, r ? 'required' : 'optional'];
      }
      case 'invalid':
      case 'valid': {
        const aria = el.getAttribute('aria-invalid');
        let inv = !!aria && aria !== 'false';
        if (el.validity && !el.validity.valid) inv = true;
        return [state === 'invalid' ? inv : !inv, inv ? 'invalid' : 'valid'];
      }
      default:
        throw new Fail('unsupported', `unknown state ${state}`);
    }
  }

  function valueOf(el) {
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) return el.value;
    if (el.isContentEditable) return norm(el.innerText);
    if (el.hasAttribute('aria-valuenow')) return el.getAttribute('aria-valuenow');
    return null;
  }

  // A control whose value is never reported (privacy.js).
  const secret = (el) => P.level(el) !== 'open';

  function layoutHolds(rel, a, b, t) {
    const ar = a.x + a.width;
    const ab = a.y + a.height;
    const br = b.x + b.width;
    const bb = b.y + b.height;
    const ix = Math.min(ar, br) - Math.max(a.x, b.x);
    const iy = Math.min(ab, bb) - Math.max(a.y, b.y);
    switch (rel) {
      case 'above':
        return ab <= b.y + t;
      case 'below':
        return a.y >= bb - t;
      case 'left_of':
        return ar <= b.x + t;
      case 'right_of':
        return a.x >= br - t;
      case 'contains':
        return a.x <= b.x + t && a.y <= b.y + t && ar >= br - t && ab >= bb - t;
      case 'inside':
        return b.x <= a.x + t && b.y <= a.y + t && br >= ar - t && bb >= ab - t;
      case 'overlaps':
        return ix > -t && iy > -t && (ix > 0 || t > 0) && (iy > 0 || t > 0);
      case 'not_overlapping':
        return ix <= t || iy <= t;
      case 'aligned_left':
        return Math.abs(a.x - b.x) <= t;
      case 'aligned_right':
        return Math.abs(ar - br) <= t;
      case 'aligned_top':
        return Math.abs(a.y - b.y) <= t;
      case 'aligned_bottom':
        return Math.abs(ab - bb) <= t;
      case 'aligned_center_x':
        return Math.abs(a.x + a.width / 2 - (b.x + b.width / 2)) <= t;
      case 'aligned_center_y':
        return Math.abs(a.y + a.height / 2 - (b.y + b.height / 2)) <= t;
      case 'same_width':
        return Math.abs(a.width - b.width) <= t;
      case 'same_height':
        return Math.abs(a.height - b.height) <= t;
      case 'same_size':
        return Math.abs(a.width - b.width) <= t && Math.abs(a.height - b.height) <= t;
      default:
        throw new Fail('unsupported', `unknown layout relation ${rel}`);
    }
  }

  function observe(c) {
    const one = (target) => {
      const r = strictOne(target);
      return r;
    };
    switch (c.condition) {
      case 'ready': {
        const s = document.readyState;
        return s === 'loading' ? fail(C.text, 'the document is still loading') : pass(s);
      }
      case 'text': {
        const doc = currentDocument();
        const want = norm(c.text);
        const body = doc.body || doc.documentElement;
        // A document just committed by a navigation (a form's redirect) may have no element yet.
        if (!body) return fail(C.text, 'the document has no content yet');
        return visibleText(body).includes(want)
          ? pass()
          : fail(C.text, `the visible page text does not contain ${JSON.stringify(want)}; it reads ${JSON.stringify(clip(shownText(body), 200))}`);
      }
      case 'url': {
        const have = window.location.href;
        if (have !== c.url) return fail(C.url, `the URL is ${have}, expected ${c.url}`);
        // The URL changes before the new document exists: the step after a URL condition must
        // see the new page, so it holds once the document is parsed.
        return document.readyState === 'loading' ? fail(C.url, 'the URL matches but the document is still loading') : pass();
      }
      case 'visible': {
        const r = one(c.target);
        if (r.fail) return { pass: false, ...r.fail };
        return isVisible(r.el) ? pass(describe(r.el)) : fail(C.notVisible, `${describe(r.el)} is not visible`);
      }
      case 'hidden': {
        const m = resolve(c.target);
        const vis = m.filter(isVisible);
        if (vis.length === 0) return pass(`${m.length} match(es), none visible`);
        return fail(C.notHidden, `${vis.length} visible match(es): ${vis.slice(0, 3).map(describe).join(', ')}`);
      }
      case 'in_viewport': {
        const r = one(c.target);
        if (r.fail) return { pass: false, ...r.fail };
        const rect = topRect(r.el);
        const i = intersect(rect, viewport());
        const ok = isVisible(r.el) && i.width > 0 && i.height > 0;
        return ok ? pass() : fail(C.notInViewport, `${describe(r.el)} at ${fmtRect(rect)} does not intersect the viewport ${fmtRect(viewport())}`);
      }
      case 'pointer_reachable': {
        const r = one(c.target);
        if (r.fail) return { pass: false, ...r.fail };
        if (!isVisible(r.el)) return fail(C.notReachable, `${describe(r.el)} is not visible`);
        // The same rule as a click's: what is on top at the point must be the target, inside it,
        // or a label of it.
        const h = hitCheck(clickPoint(topRect(r.el)), r.el, true);
        return h.status ? fail(C.notReachable, h.reason) : pass(h.hit);
      }
      case 'rendered_text': {
        const r = one(c.target);
        if (r.fail) return { pass: false, ...r.fail };
        const want = norm(c.text);
        return visibleText(r.el) === want
          ? pass()
          : fail(C.rendered, `rendered text is ${JSON.stringify(clip(shownText(r.el), 200))}, expected ${JSON.stringify(want)}`);
      }
      case 'rendered_texts': {
        const shown = resolve(c.target).filter(isVisible);
        const have = shown.map(visibleText);
        const want = c.texts.map(norm);
        const same = have.length === want.length && have.every((t, i) => t === want[i]);
        const reported = shown.slice(0, 20).map((el) => clip(shownText(el), 60));
        return same ? pass() : fail(C.rendered, `rendered texts are ${JSON.stringify(reported)}, expected ${JSON.stringify(want.slice(0, 20))}`);
      }
      case 'visible_count': {
        const m = resolve(c.target);
        const n = m.filter(isVisible).length;
        return n === c.count ? pass(`${n}`) : fail(C.count, `${n} visible match(es) (${m.length} in total), expected ${c.count}`);
      }
      case 'value': {
        const r = one(c.target);
        if (r.fail) return { pass: false, ...r.fail };
        const v = valueOf(r.el);
        if (v === null) return fail(C.value, `${describe(r.el)} has no value`);
        if (v === c.value) return pass();
        // A private control's value, or a value the suite reads from the environment, is never
        // quoted: not the one found, not the one expected.
        if (secret(r.el) || c.conceal) return fail(C.value, `${describe(r.el)} holds another value (private, not shown)`);
        return fail(C.value, `value is ${JSON.stringify(clip(v, 200))}, expected ${JSON.stringify(c.value)}`);
      }
      case 'selected_values': {
        const r = one(c.target);
        if (r.fail) return { pass: false, ...r.fail };
        if (r.el.tagName !== 'SELECT') return fail(C.selection, `${describe(r.el)} is not a <select>`);
        const have = Array.from(r.el.selectedOptions).map((o) => o.value);
        const hs = new Set(have);
        const ws = new Set(c.values);
        const same = hs.size === ws.size && [...ws].every((v) => hs.has(v));
        if (same) return pass();
        if (secret(r.el)) return fail(C.selection, `${describe(r.el)} has other options selected (private, not shown)`);
        return fail(C.selection, `selected values are ${JSON.stringify(have)}, expected ${JSON.stringify(c.values)}`);
      }
      case 'viewport_coverage': {
        const r = one(c.target);
        if (r.fail) return { pass: false, ...r.fail };
        const v = viewport();
        const i = isVisible(r.el) ? intersect(topRect(r.el), v) : { width: 0, height: 0 };
        const pct = ((i.width * i.height) / Math.max(1, v.width * v.height)) * 100;
        const ok = c.bound === 'at_least' ? pct >= c.percent : pct <= c.percent;
        const word = c.bound === 'at_least' ? 'at least' : 'at most';
        return ok ? pass(`${round(pct)}%`) : fail(C.coverage, `${describe(r.el)} covers ${round(pct)}% of the viewport, expected ${word} ${c.percent}%`);
      }
      case 'state': {
        const r = one(c.target);
        if (r.fail) return { pass: false, ...r.fail };
        const [holds, what] = stateOf(r.el, c.state);
        return holds ? pass() : fail(C.state, `${describe(r.el)} is ${what}, expected ${c.state.replace('_', ' ')}`);
      }
      case 'layout': {
        const a = one(c.target);
        if (a.fail) return fail(a.fail.code, a.fail.message);
        const b = one(c.relative_to);
        if (b.fail) return fail(b.fail.code, `relative_to: ${b.fail.message}`);
        const ra = topRect(a.el);
        const rb = topRect(b.el);
        const t = c.tolerance_px || 0;
        return layoutHolds(c.relation, ra, rb, t)
          ? pass()
          : fail(C.layout, `${describe(a.el)} ${fmtRect(ra)} is not ${c.relation.replace(/_/g, ' ')} ${describe(b.el)} ${fmtRect(rb)} (tolerance ${t}px)`);
      }
      default:
        throw new Fail('unsupported', `unknown condition ${c.condition}`);
    }
  }

  // Conditions read from element properties or geometry, which a script can change without any
  // DOM mutation or event (`input.value = …`, `checked = …`, a transform): while watching, these
  // are read again in the page about once a frame, so a change is seen within a frame or two.
  const POLLED_FORMS = new Set([
    'value', 'selected_values', 'state', 'url', 'layout', 'viewport_coverage', 'in_viewport', 'pointer_reachable',
  ]);

  // The Test Kit's bridge, when the page has one: its revision changes with the page.
  const BRIDGE = Symbol.for('a3s.test.page-context');

  // Resolves once the page may have changed in a way a condition could see, or after `ms`:
  // a DOM mutation of the top or current document, a same-document navigation (pushState,
  // popstate, hash), user-visible input, focus, scroll or resize, a new Test Kit revision, or
  // — with `recheck` — the condition holding when read again (see POLLED_FORMS). A change no
  // signal reports (inside a shadow root, say) is caught by the caller's next timed reading.
  // Everything is removed again before it resolves: nothing stays in the page.
  function watchChange(ms, recheck) {
    if (!(ms > 0)) return Promise.resolve('timeout');
    let doc = document;
    try {
      doc = currentDocument();
    } catch (e) {
      /* a missing frame: the top document still reports the change that brings it back */
    }
    const docs = doc === document ? [document] : [document, doc];
    const wins = docs.map((d) => d.defaultView).filter(Boolean);
    const EVENTS = ['input', 'change', 'focusin', 'focusout', 'scroll', 'resize', 'popstate', 'hashchange', 'transitionend', 'animationend'];
    return new Promise((resolve) => {
      let done = false;
      let poller = 0;
      let unsubscribe = null;
      const nav = window.navigation;
      const finish = (why) => {
        if (done) return;
        done = true;
        observer.disconnect();
        clearTimeout(timer);
        clearTimeout(poller);
        for (const w of wins) for (const e of EVENTS) w.removeEventListener(e, onEvent, true);
        if (nav) nav.removeEventListener('currententrychange', onEvent);
        if (unsubscribe) {
          try {
            unsubscribe();
          } catch (e) {
            /* the page's own bridge; nothing of ours to clean up */
          }
        }
        resolve(why);
      };
      const onEvent = () => finish('event');
      const observer = new MutationObserver(() => finish('mutation'));
      for (const d of docs) observer.observe(d, { subtree: true, childList: true, attributes: true, characterData: true });
      for (const w of wins) for (const e of EVENTS) w.addEventListener(e, onEvent, true);
      if (nav) nav.addEventListener('currententrychange', onEvent);
      try {
        const bridge = window[BRIDGE];
        if (bridge && typeof bridge.subscribe === 'function') {
          const u = bridge.subscribe(() => finish('revision'));
          if (typeof u === 'function') unsubscribe = u;
        }
      } catch (e) {
        /* a bridge that refuses is no signal */
      }
      const timer = setTimeout(() => finish('timeout'), ms);
      if (recheck) {
        // About once a frame; a reading that costs more than 4 ms is spaced out so that polling
        // takes at most a fifth of the page's time.
        const poll = () => {
          if (done) return;
          const t0 = perfNow();
          let holds = false;
          try {
            holds = recheck();
          } catch (e) {
            holds = true; // let the caller's reading say what went wrong
          }
          if (holds) return finish('holds');
          const cost = perfNow() - t0;
          poller = setTimeout(poll, cost > 4 ? cost * 4 : 16);
        };
        poller = setTimeout(poll, 16);
      }
    });
  }

  // One reading of a condition (`expect` and `wait`, docs/acl.md §8–§9). When it does not hold
  // and `watch_ms` is given, the answer comes only once the page may have changed (or
  // `watch_ms` passed): the watch starts in the same task as the reading, so no change between
  // the two can be missed. A frame that is not there (yet) is a reading that does not hold.
  async function check(o) {
    const read = () => {
      try {
        return observe(o.condition);
      } catch (e) {
        if (!(e instanceof Fail) || e.kind !== 'frame') throw e;
        return fail(C.frame, e.message);
      }
    };
    const r = read();
    if (r.pass || !(o.watch_ms > 0)) return r;
    const recheck = POLLED_FORMS.has(o.condition.condition) ? () => read().pass : null;
    await watchChange(o.watch_ms, recheck);
    return r;
  }

  // ---------------------------------------------------------------- control operations

  function one(target) {
    const r = strictOne(target);
    if (r.fail) throw new Fail('target', r.fail.message);
    return r.el;
  }

  function setNativeValue(el, value) {
    const proto = el.tagName === 'TEXTAREA' ? winOf(el).HTMLTextAreaElement.prototype : winOf(el).HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }

  const ops = {
    actionable,
    still_there: stillThere,
    check,
    // A locator for each of the first matches of an ambiguous target (for its failure message).
    picks: (o) => ({ picks: picksFor(resolve(o.target)) }),
    // The shortest locator naming `element` (a node the driver resolved by backend id);
    // `connected: false` when it left the document.
    locate_node: (o, element) => {
      if (!element || !element.isConnected) return { connected: false };
      return { connected: true, locator: locatorFor(element) };
    },
    // Focus the control and select its content so inserted text replaces it.
    prepare_fill(o) {
      const el = one(o.target);
      el.focus();
      if (el.tagName === 'INPUT' && SET_VALUE_TYPES.has(inputType(el))) return { mode: 'set' };
      if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
        el.select();
        return { mode: 'insert' };
      }
      const sel = winOf(el).getSelection();
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      sel.removeAllRanges();
      sel.addRange(range);
      return { mode: 'insert' };
    },
    set_value(o) {
      const el = one(o.target);
      setNativeValue(el, o.value);
      return { ok: true };
    },
    // Focus the control with the caret at the end, for appending keystrokes.
    focus_end(o) {
      const el = one(o.target);
      el.focus();
      if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
        try {
          const n = el.value.length;
          el.setSelectionRange(n, n);
        } catch (e) {
          /* types without a selection API (email, number) keep their caret */
        }
      } else if (el.isContentEditable) {
        const sel = winOf(el).getSelection();
        const range = el.ownerDocument.createRange();
        range.selectNodeContents(el);
        range.collapse(false);
        sel.removeAllRanges();
        sel.addRange(range);
      }
      return { ok: true };
    },
    focus(o) {
      const el = one(o.target);
      el.focus();
      return { focused: deepActive() === el };
    },
    read_value(o) {
      const el = one(o.target);
      const v = valueOf(el);
      return { value: v, secret: secret(el) };
    },
    // Whether what goes into the target (or, without one, the focused element) is private, and
    // the words to name it by (its accessible name; its autocomplete token) — never its value.
    privacy(o) {
      const el = o.target ? one(o.target) : deepActive();
      if (!el || el.nodeType !== 1) return { level: 'open', name: '', autocomplete: '' };
      const level = P.level(el);
      const name = level === 'hidden' ? '' : norm(accName(el).name);
      return { level, name, autocomplete: norm(el.getAttribute('autocomplete') || '') };
    },
    checked_state(o) {
      return checkable(one(o.target));
    },
    select_options(o) {
      const el = one(o.target);
      if (el.tagName !== 'SELECT') return { problem: `${describe(el)} is not a <select>` };
      if (!el.multiple && o.values.length > 1) return { problem: `${describe(el)} is not a multiple <select>` };
      const options = Array.from(el.options);
      const chosen = new Set();
      for (const v of o.values) {
        const opt =
          options.find((x) => x.value === v) || options.find((x) => norm(x.label || x.textContent) === norm(v));
        if (!opt) return { problem: `${describe(el)} has no option with value or label ${JSON.stringify(v)}` };
        if (opt.disabled) return { problem: `the option ${JSON.stringify(v)} is disabled` };
        chosen.add(opt);
      }
      for (const x of options) x.selected = chosen.has(x);
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      // A private select's choice is not reported back.
      return { selected: secret(el) ? [] : Array.from(el.selectedOptions).map((x) => x.value) };
    },
    // The element itself (evaluated without returnByValue) for DOM.setFileInputFiles.
    element(o) {
      const el = one(o.target);
      if (o.file_count != null) {
        if (!(el.tagName === 'INPUT' && inputType(el) === 'file')) {
          throw new Fail('not_actionable', `${describe(el)} is not a file input`);
        }
        if (o.file_count > 1 && !el.multiple) {
          throw new Fail('not_actionable', `${describe(el)} accepts one file, ${o.file_count} given`);
        }
      }
      return el;
    },
    candidates(o) {
      return candidates(o);
    },
    page_hash() {
      return pageHash();
    },
    frame_check(o) {
      const doc = currentDocument();
      let frame = null;
      try {
        frame = doc.querySelectorAll(o.selector);
      } catch (e) {
        throw new Fail('selector', `invalid CSS selector ${JSON.stringify(o.selector)}`);
      }
      if (frame.length === 0) throw new Fail('frame', `no element matches css(${JSON.stringify(o.selector)})`);
      if (frame.length > 1) throw new Fail('frame', `${frame.length} elements match css(${JSON.stringify(o.selector)})`);
      const f = frame[0];
      if (f.tagName !== 'IFRAME' && f.tagName !== 'FRAME') throw new Fail('frame', `css(${JSON.stringify(o.selector)}) is ${describe(f)}, not an iframe`);
      let d = null;
      try {
        d = f.contentDocument;
      } catch (e) {
        d = null;
      }
      if (!d) throw new Fail('frame', `the iframe css(${JSON.stringify(o.selector)}) is cross-origin or has no document`);
      return { url: d.location.href };
    },
    // Where keys would go: true when the focus is inside the Review Overlay.
    focus_in_review_overlay() {
      return { inside: inReviewOverlay(deepActive()) };
    },
    page_text() {
      const doc = currentDocument();
      const root = doc.body || doc.documentElement;
      return { text: root ? shownText(root) : '' };
    },
    // Read-only geometry for a Layout Mode repair check: viewport, scroll, the topmost element
    // at a point other than the page root, and the box of the one element a target names.
    layout_facts(o) {
      const doc = currentDocument();
      const win = doc.defaultView;
      const out = {
        viewportWidth: win.innerWidth,
        viewportHeight: win.innerHeight,
        scrollX: win.scrollX,
        scrollY: win.scrollY,
        occupant: null,
        rect: null,
      };
      if (o.point) {
        const root = doc.documentElement;
        const hit = doc
          .elementsFromPoint(o.point.x, o.point.y)
          .find((el) => el !== root && el !== doc.body && !inReviewOverlay(el));
        if (hit) out.occupant = clip(describe(hit), 256);
      }
      if (o.target) {
        const m = resolve(o.target);
        if (m.length === 1) {
          const r = m[0].getBoundingClientRect();
          out.rect = { x: r.x, y: r.y, width: r.width, height: r.height };
        }
      }
      return out;
    },
    // The rectangles of every match of each target, for `expect { screenshot mask }`: CSS
    // pixels of the viewport, or of the document when `page` is set (a full-page capture).
    mask_rects(o) {
      const rects = [];
      const dx = o.page ? window.scrollX : 0;
      const dy = o.page ? window.scrollY : 0;
      for (const t of o.targets) {
        for (const el of resolve(t)) {
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.height > 0) rects.push([r.x + dx, r.y + dy, r.width, r.height]);
        }
      }
      return { rects, scale: window.devicePixelRatio || 1 };
    },
    // Read-only facts of the one element a target names (repair verification); how many match
    // otherwise.
    target_facts(o) {
      const m = resolve(o.target);
      if (m.length !== 1) {
        return { matches: m.length, text: null, visible: false, disabled: false, checked: null, expanded: null };
      }
      const el = m[0];
      const c = checkable(el);
      const [open, what] = stateOf(el, 'expanded');
      return {
        matches: 1,
        text: clip(shownText(el), 2048),
        visible: isVisible(el),
        disabled: isDisabled(el),
        checked: c.checkable ? c.checked : null,
        expanded: what.startsWith('not ') ? null : open,
      };
    },
  };

  const wrap = (e) =>
    e instanceof Fail
      ? { error: { kind: e.kind, message: e.message } }
      : { error: { kind: 'script', message: String((e && e.message) || e) } };
  try {
    const out = ops[req.op](req, element);
    if (out && typeof out.then === 'function') return out.catch(wrap);
    return out;
  } catch (e) {
    return req.op === 'element' ? JSON.stringify(wrap(e)) : wrap(e);
  }
})
