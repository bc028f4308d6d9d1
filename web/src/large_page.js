function (limit, textLimit, operableRoles, ...listened) {
  // The bounded observation of a very large page (`large_page.rs`), called on the top document as
  // `(limit, textLimit, operableRoles, ...listened)`: one pass over the body's elements in
  // document order that stops once `limit` controls are known and one more is found. It answers
  // `{ elements, data }`: `elements` the controls' elements (their backend ids are asked in one
  // batch by the caller), `data` a JSON string `{ controls, texts, more, textsMore }` — per control
  // its role, name, value, states, tag, attributes and privacy level (`o` open, `v` not its value,
  // `h` nothing: `privacy.js`); per text `[role, text, controlsBefore]`.
  //
  // Which elements are controls is the rule of the small-page path (`operable.rs`, `agent.rs`): an
  // element with an operable role (`operableRoles`); `draggable`/`contenteditable` (`k`) always;
  // `tabindex`, a listener on it or on its list, or the outermost element of a pointer-cursor
  // subtree (`c`) unless an operable element is inside it. Elements hidden from the accessibility
  // tree are left out. Roles and names come from the shared a11y bundle, as the resolver's do.
  // (The bundle's "use strict" must not open the body: a function with rest parameters may
  // not declare it.)
  const P = (__PRIVACY__)(__RULE__);
  __A11Y__
  const { accName, hiddenFromA11y, roleOf } = A3S_A11Y;
  const OPERABLE = new Set(operableRoles);
  const ROLE = 'a[href],area[href],button,input:not([type="hidden"]),select,textarea,summary,option,[role]';
  const LISTS = 'ul,ol,menu,tbody,thead,[role="list"],[role="listbox"],[role="menu"],[role="grid"],[role="tree"],[role="tablist"]';
  const TEXT = 'h1,h2,h3,h4,h5,h6,[role="heading"],[role="alert"],[role="status"],output';
  const ATTRIBUTES = ['id', 'data-testid', 'placeholder', 'name', 'type', 'aria-label'];
  const WORDED = new Set(['placeholder', 'name', 'aria-label']);
  const OVERLAY = 'a3s-review-overlay';
  const marked = new Set(listened);
  for (const el of listened) {
    if (el.nodeType === 1 && el.matches(LISTS)) for (const item of el.children) marked.add(item);
  }
  const clip = (s, n) => s.replace(/\s+/g, ' ').trim().slice(0, n);
  const tri = (v) => (v === 'mixed' ? 'mixed' : v === 'true' || v === true ? 'true' : 'false');

  function states(el, role) {
    const s = {};
    const aria = (name) => el.getAttribute('aria-' + name);
    if (el === document.activeElement) s.focused = true;
    if (el.disabled === true || aria('disabled') === 'true') s.disabled = true;
    if (el.required === true || aria('required') === 'true') s.required = true;
    if (el.readOnly === true || aria('readonly') === 'true') s.readonly = true;
    if (aria('invalid') && aria('invalid') !== 'false') s.invalid = aria('invalid');
    if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) {
      const native = el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio');
      s.checked = native ? (el.indeterminate ? 'mixed' : tri(el.checked)) : tri(aria('checked'));
    }
    if (aria('expanded') !== null) s.expanded = aria('expanded') === 'true';
    else if (el.localName === 'summary' && el.parentElement && el.parentElement.localName === 'details') s.expanded = el.parentElement.open;
    if (aria('pressed') !== null) s.pressed = tri(aria('pressed'));
    if (el.localName === 'option') s.selected = el.selected;
    else if (aria('selected') !== null) s.selected = aria('selected') === 'true';
    return s;
  }

  function valueOf(el) {
    if (el.localName === 'select') return Array.from(el.selectedOptions).map((o) => o.text).join(', ');
    if (el.localName === 'textarea') return el.value;
    if (el.localName === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file'].includes(el.type)) return el.value;
    return '';
  }

  function describe(el, kind) {
    const level = P.level(el)[0];
    const role = roleOf(el) || 'generic';
    const hidden = level === 'h';
    // Inside a redacted region nothing of the name or value leaves the page: the marker says
    // there was one.
    const acc = P.holdsRegion(el) ? { name: P.shownText(el), source: 'content' } : accName(el);
    let name = clip(acc.name, 500);
    if (!name && kind !== '-') name = clip(P.shownText(el), 120);
    if (hidden && name) name = P.marker;
    let value = valueOf(el);
    if (level !== 'o' && value) value = P.marker;
    const attributes = {};
    for (const a of ATTRIBUTES) {
      const v = el.getAttribute(a);
      if (v !== null && !(hidden && WORDED.has(a))) attributes[a] = v;
    }
    return { role, name, value, states: states(el, role), tag: el.localName, attributes, byLabel: acc.source === 'label' };
  }

  // Candidates in document order: [element, kind, has an operable element inside].
  const found = [];
  const open = [];
  let controls = 0;
  let more = false;
  let textsMore = false;
  const texts = [];
  const seenText = new Set();
  const pointer = new Set();
  const skip = new Set();
  const all = this.body ? this.body.getElementsByTagName('*') : [];
  for (let i = 0; i < all.length; i++) {
    const el = all[i];
    if (el.localName === OVERLAY || skip.has(el.parentElement)) {
      skip.add(el);
      continue;
    }
    if (el.matches(TEXT)) {
      const r = el.getAttribute('role');
      const role = r === 'alert' || r === 'status' ? r : el.localName === 'output' ? 'status' : 'heading';
      const text = clip(P.shownText(el), 500);
      if (text && !seenText.has(text)) {
        if (texts.length >= textLimit) textsMore = true;
        else {
          seenText.add(text);
          texts.push([role, text, found.length]);
        }
      }
    }
    const cursor = getComputedStyle(el).cursor === 'pointer';
    if (cursor) pointer.add(el);
    let kind = '';
    if (el.getAttribute('draggable') === 'true' || (el.hasAttribute('contenteditable') && el.getAttribute('contenteditable') !== 'false')) kind = 'k';
    else if (el.hasAttribute('tabindex') || marked.has(el) || (cursor && !pointer.has(el.parentElement))) kind = 'c';
    else if (el.matches(ROLE)) kind = '-';
    if (!kind) continue;
    while (open.length && !open[open.length - 1][0].contains(el)) open.pop();
    const hidden = hiddenFromA11y(el);
    const operable = !hidden && (kind !== '-' || OPERABLE.has(roleOf(el) || ''));
    if (operable) for (const o of open) o[2] = true;
    // A `-` candidate that is no control matters no more; a `c` is decided when its subtree ends.
    if (hidden || (kind === '-' && !operable)) continue;
    const entry = [el, kind, false];
    found.push(entry);
    open.push(entry);
    if (kind !== 'c') controls += 1;
    if (controls > limit) {
      more = true;
      break;
    }
  }
  // The controls kept, and for each candidate how many were kept before it (where a text
  // between candidates stands among the controls).
  const elements = [];
  const out = [];
  const keptBefore = [0];
  let lastKept = 0;
  for (const [el, kind, inside] of found) {
    if (!(kind === 'c' && inside)) {
      if (elements.length < limit) {
        elements.push(el);
        out.push(describe(el, kind));
        lastKept = keptBefore.length;
      } else more = true;
    }
    keptBefore.push(elements.length);
  }
  // Texts after the last control kept are past the cut.
  const shown = texts.filter((t) => !more || t[2] <= lastKept).map(([role, text, at]) => [role, text, keptBefore[at]]);
  return { elements, data: JSON.stringify({ controls: out, texts: shown, more, textsMore }) };
}
