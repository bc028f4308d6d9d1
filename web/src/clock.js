// A3S Test page clock (docs/acl.md §2.4 and §5, "The clock"): evaluated as `(SOURCE)(CONFIG)` in
// every new document of a context with `clock = { install_at }` (and in the current one when a
// clock step installs it late). It replaces Date, setTimeout/setInterval, requestAnimationFrame
// and performance.now with a clock the driver moves, and keeps the real timers for the driver's
// own waits under Symbol.for('a3s-test.real-timers') (resolver.js reads them there).
//
// CONFIG: { now: ms since the epoch, paused: bool, fixed: ms | null, anchor: the real wall
// time (ms) when `now` was true } — a document loaded later starts where the clock is.
(function (config) {
  'use strict';
  const KEY = Symbol.for('a3s-test.clock');
  if (globalThis[KEY]) return;
  const RealDate = Date;
  const real = {
    setTimeout: globalThis.setTimeout.bind(globalThis),
    clearTimeout: globalThis.clearTimeout.bind(globalThis),
    requestAnimationFrame: globalThis.requestAnimationFrame
      ? globalThis.requestAnimationFrame.bind(globalThis)
      : (f) => globalThis.setTimeout(f, 16),
    cancelAnimationFrame: globalThis.cancelAnimationFrame
      ? globalThis.cancelAnimationFrame.bind(globalThis)
      : (id) => globalThis.clearTimeout(id),
    now: performance.now.bind(performance),
  };
  const hide = (name, value) =>
    Object.defineProperty(globalThis, name, { value, configurable: false, enumerable: false, writable: false });
  hide(Symbol.for('a3s-test.real-timers'), real);

  // The clock: `base` is the fake time when `anchorReal` (real ms) was the real time; paused,
  // the time is `base`. While timers fire during a jump, the time is the timer's.
  let base = config.now;
  let anchorReal = config.paused ? RealDate.now() : Math.min(config.anchor, RealDate.now());
  let paused = !!config.paused;
  let fixed = config.fixed == null ? null : config.fixed;
  let firing = null;
  const perfBase = real.now();
  const installedAt = config.now;

  const current = () => {
    if (firing !== null) return firing;
    return paused ? base : base + (RealDate.now() - anchorReal);
  };
  const dateNow = () => (fixed !== null ? fixed : current());

  // Timers by id: { at, fn, args, every (ms, intervals), frame (rAF) }.
  const timers = new Map();
  let nextId = 1;
  let armed = null;

  const due = (limit) => {
    let best = null;
    for (const [id, t] of timers) {
      if (t.at <= limit && (best === null || t.at < best[1].at || (t.at === best[1].at && id < best[0]))) best = [id, t];
    }
    return best;
  };
  const fire = (id, t) => {
    const at = t.at;
    if (t.every !== null) t.at += Math.max(1, t.every);
    else timers.delete(id);
    firing = Math.max(firing === null ? at : firing, at);
    try {
      if (t.frame) t.fn(perfBase + (at - installedAt));
      else if (typeof t.fn === 'function') t.fn(...t.args);
      else (0, eval)(String(t.fn));
    } catch (e) {
      real.setTimeout(() => { throw e; }, 0);
    }
  };
  // Fire every timer due up to `limit`, in time order (a timer added on the way fires too when
  // due), then leave the clock at `limit`.
  const runTo = (limit) => {
    let guard = 0;
    for (let next = due(limit); next !== null && guard < 100000; next = due(limit), guard++) fire(next[0], next[1]);
    firing = null;
  };
  const arm = () => {
    if (armed !== null) real.clearTimeout(armed);
    armed = null;
    if (paused || timers.size === 0) return;
    let earliest = Infinity;
    for (const t of timers.values()) earliest = Math.min(earliest, t.at);
    armed = real.setTimeout(() => {
      armed = null;
      const now = current();
      runTo(now);
      arm();
    }, Math.max(0, earliest - current()));
  };
  const add = (fn, delay, args, every, frame) => {
    const id = nextId++;
    const ms = Math.max(0, Number(delay) || 0);
    timers.set(id, { at: current() + ms, fn, args, every: every ? Math.max(1, ms) : null, frame });
    arm();
    return id;
  };
  const remove = (id) => {
    if (timers.delete(Number(id))) arm();
  };

  function FakeDate(...args) {
    if (!new.target) return new RealDate(dateNow()).toString();
    return Reflect.construct(RealDate, args.length ? args : [dateNow()], new.target);
  }
  FakeDate.prototype = RealDate.prototype;
  FakeDate.now = dateNow;
  FakeDate.parse = RealDate.parse;
  FakeDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: FakeDate, configurable: true, writable: true });
  globalThis.Date = FakeDate;
  globalThis.setTimeout = (fn, delay, ...args) => add(fn, delay, args, false, false);
  globalThis.setInterval = (fn, delay, ...args) => add(fn, delay, args, true, false);
  globalThis.clearTimeout = remove;
  globalThis.clearInterval = remove;
  globalThis.requestAnimationFrame = (fn) => add(fn, 16, [], false, true);
  globalThis.cancelAnimationFrame = remove;
  performance.now = () => perfBase + (current() - installedAt);

  const state = () => ({ now: current(), paused, fixed, anchor: RealDate.now() });
  const controller = {
    fastForward(ms) {
      const target = current() + ms;
      runTo(target);
      base = target;
      anchorReal = RealDate.now();
      arm();
      return state();
    },
    pauseAt(at) {
      if (at > current()) runTo(at);
      paused = true;
      base = at;
      arm();
      return state();
    },
    resume() {
      if (paused) {
        paused = false;
        anchorReal = RealDate.now();
      }
      arm();
      return state();
    },
    setFixedTime(at) {
      fixed = at;
      return state();
    },
    state,
  };
  hide(KEY, controller);
})
