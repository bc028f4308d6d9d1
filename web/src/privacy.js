// Private values (docs/privacy.md): which elements A3S Test never reports the value of, and which
// regions it never reports the text of. The rule is A3S Test's own, written once in Rust
// (driver/src/privacy.rs) and handed in as `rule`; the page adds the regions its Test Kit
// declares private (the `redact` selectors of its bridge's handshake). This expression's value
// builds the predicates; the resolver (script.rs) and the private-element query (privacy.rs)
// both evaluate it, so they can never disagree about what is private.
//
// Resolution and assertions still read everything: privacy is about what leaves the page.
(rule) => {
  const BRIDGE = Symbol.for('a3s.test.page-context');
  const OVERLAY = 'A3S-REVIEW-OVERLAY';
  const FIELDS = new Set(['input', 'textarea', 'select']);
  // window → the page's redact selectors joined, or null; read once per evaluation.
  const selectors = new Map();

  function redactSelector(win) {
    if (!win) return null;
    if (selectors.has(win)) return selectors.get(win);
    let joined = null;
    try {
      const bridge = win[BRIDGE];
      const list = bridge && typeof bridge.handshake === 'function' ? bridge.handshake().redact : null;
      if (Array.isArray(list)) {
        const valid = list.filter((s) => {
          if (typeof s !== 'string' || s.trim() === '') return false;
          try {
            win.document.createDocumentFragment().querySelector(s);
            return true;
          } catch (e) {
            return false;
          }
        });
        if (valid.length) joined = valid.join(', ');
      }
    } catch (e) {
      joined = null;
    }
    selectors.set(win, joined);
    return joined;
  }

  const winOf = (n) => (n.ownerDocument || n).defaultView;
  // The parent element, crossing a shadow root to its host (a slotted child's parent is the host
  // already): a region declared on a host covers its shadow tree and its light children.
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;

  function matchesRegion(el) {
    const sel = redactSelector(winOf(el));
    if (!sel) return false;
    try {
      return el.matches(sel);
    } catch (e) {
      return false;
    }
  }

  // A form control whose value is a secret by A3S Test's rule: its input type, or one of its
  // autocomplete tokens.
  function sensitive(el) {
    const tag = el.localName;
    if (!FIELDS.has(tag)) return false;
    if (tag === 'input' && rule.input_types.includes((el.getAttribute('type') || '').trim().toLowerCase())) return true;
    const tokens = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
    return tokens.some((t) => rule.autocomplete.includes(t) || rule.autocomplete_prefixes.some((p) => t.startsWith(p)));
  }

  // The redacted region covering `node` (an element or text node): itself or its nearest
  // ancestor a redact selector matches, or null.
  function region(node) {
    for (let n = node.nodeType === 1 ? node : up(node) || node.parentNode; n; n = up(n)) {
      if (n.nodeType === 1 && matchesRegion(n)) return n;
    }
    return null;
  }

  // What may be reported of `el`: 'open'; 'value' — its name, never its value (a sensitive
  // control, or a form field that is itself a redacted region, labelled from outside it);
  // 'hidden' — nothing of its text, name or value (inside a redacted region).
  function level(el) {
    const r = region(el);
    if (r) return r === el && FIELDS.has(el.localName) ? 'value' : 'hidden';
    return sensitive(el) ? 'value' : 'open';
  }

  // True when `el` has a redacted region inside it (so a name computed from its content could
  // carry the region's text).
  function holdsRegion(el) {
    const sel = redactSelector(winOf(el));
    if (!sel) return false;
    try {
      return el.querySelector(sel) !== null;
    } catch (e) {
      return false;
    }
  }

  // The text content of `el` as it may be reported: a redacted region reads as the marker.
  // (The resolver has its own rendered-text walk; this serves the bounded queries of very
  // large pages, which read `textContent`.)
  function shownText(el) {
    if (region(el)) return rule.marker;
    const parts = [];
    const visit = (n) => {
      for (const c of n.childNodes) {
        if (c.nodeType === 3) parts.push(c.data);
        else if (c.nodeType === 1 && matchesRegion(c)) parts.push(` ${rule.marker} `);
        else if (c.nodeType === 1) visit(c);
      }
    };
    visit(el);
    return parts.join('');
  }

  // Every private element of `doc` in document order, across open shadow roots, at most
  // `limit`: sensitive controls (`s`), form fields that are redacted regions (`f`) and other
  // redacted regions (`r`, whose subtree is not searched further), with each one's viewport
  // rectangle, for the observation and for screenshot masks.
  function privateElements(doc, limit) {
    const elements = [];
    let kinds = '';
    const rects = [];
    let more = false;
    const push = (el, kind) => {
      if (elements.length >= limit) {
        more = true;
        return;
      }
      elements.push(el);
      kinds += kind;
      const r = el.getBoundingClientRect();
      rects.push([r.x, r.y, r.width, r.height]);
    };
    const visit = (root) => {
      for (let el = root.firstElementChild; el && !more; el = el.nextElementSibling) {
        if (el.tagName === OVERLAY) continue;
        if (matchesRegion(el)) {
          push(el, FIELDS.has(el.localName) ? 'f' : 'r');
          continue;
        }
        if (sensitive(el)) push(el, 's');
        if (el.shadowRoot) visit(el.shadowRoot);
        visit(el);
      }
    };
    visit(doc);
    const win = winOf(doc) || window;
    return { elements, kinds, rects: JSON.stringify(rects), more, scale: win.devicePixelRatio || 1 };
  }

  return { marker: rule.marker, sensitive, region, level, holdsRegion, matchesRegion, shownText, privateElements };
}
