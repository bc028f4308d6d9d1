#!/usr/bin/env python3
"""MiniWoB++ 1.1.0 tasks solved by refs alone: a scripted agent that reads only the CLI's default
text observation (`agent observe`, and `--since N` diffs where it waits for something to appear)
and acts only through the verbs with `@eN` refs — never a CSS selector, never page JavaScript —
starts each episode by clicking the task's own START cover by ref and reads the episode's reward
from the page's reward display ("Last reward:") in the observation.

Two ways of taking a turn are measured on the same tasks:
  two-call: act, then `observe` (a `--since` diff) before the next action — every action ends
            the observation, so the agent observes again to get refs it may use;
  one-call: act with `--observe`: the action's answer carries the observation that follows it
            (the whole view, where the reward shows too), whose refs the next action takes.

Per task and mode it prints: solved/episodes (an episode is solved when the page's reward is
> 0), calls (CLI processes) per episode and per solved episode, wall time per solved episode
(p50), bytes per observation (median) and per solved episode, and the p50 time per call
(observe, act). The 1-minute load average is printed with the timings (a shared machine is
noisy).

Usage: bench/miniwob-solve.py [path/to/a3s-test] [episodes] [task…] [--one-call | --two-call]
  (default target/release/a3s-test, 5 episodes, every task below, both modes; needs `pip install
  miniwob==1.1.0`, whose `html/` folder is served on loopback with `a3s-test serve`)
"""
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("agent_session", os.path.join(HERE, "agent-session.py"))
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
bench.BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/a3s-test")
EPISODES = int(ARGS[1]) if len(ARGS) > 1 else 5
FLAGS = [a for a in sys.argv[1:] if a.startswith("--")]
MODES = [m for m in ("two-call", "one-call") if f"--{m}" in FLAGS] or ["two-call", "one-call"]
SESSION = "bench-solve"
# Observations after the last action that may show the reward (it shows at once: one is enough).
REWARD_POLLS = 3
DECODER = json.JSONDecoder()


class Line:
    """One line of a text observation (or of a diff): its change mark, ref, role, quoted text
    (a control's name or page text), value and states."""

    def __init__(self, mark, ref, role, text, value, states):
        self.mark, self.ref, self.role, self.text, self.value, self.states = mark, ref, role, text, value, states

    def __repr__(self):
        return f"{self.mark or ''}{self.ref or ''} {self.role or ''} {self.text!r}"


def parse(out):
    """The outline lines of a text observation: every line after the header that starts with a
    change mark, a ref, a role or a quote (the `next:` hint and the cut marker are skipped)."""
    rows = []
    for raw in out.splitlines()[1:]:
        s, mark, ref, role = raw, None, None, None
        if s[:2] in ("+ ", "- ", "~ "):
            mark, s = s[0], s[2:]
        m = re.match(r"(@e\d+) ", s)
        if m:
            ref, s = m.group(1), s[m.end():]
        if not s.startswith('"'):
            m = re.match(r"([\w-]+) \"", s)
            if not m:
                continue
            role, s = m.group(1), s[m.end() - 1:]
        text, end = DECODER.raw_decode(s)
        value, states = None, set()
        for m in re.finditer(r' (\w+)(?:=("(?:[^"\\]|\\.)*"|\S+))?', s[end:]):
            if m.group(1) == "value":
                value = json.loads(m.group(2))
            else:
                states.add(m.group(1))
        rows.append(Line(mark, ref, role, text, value, states))
    return rows


def observation_part(out):
    """The observation an action's answer carries (`--observe`): from its `observation N` header
    on (the lines before it are the step's result)."""
    at = re.search(r"^observation \d+ ", out, re.M)
    return out[at.start():] if at else None


class Agent:
    """The turns of one session, with what each cost. `one_call`: every action answers with the
    observation that follows it (`--observe`)."""

    def __init__(self, root, one_call):
        self.root = root
        self.one_call = one_call
        self.observation = None
        # Whether the latest observation is still open (every action ends one; an action with
        # `--observe` opens the next).
        self.open = False
        # The lines of the latest observation (an action's, in one-call mode).
        self.last = None
        self.reset()

    def reset(self):
        self.turns, self.bytes, self.observe_ms, self.act_ms = 0, [], [], []

    def seen(self, out):
        """Record the text observation `out`: its id, bytes and lines."""
        self.bytes.append(len(out.encode()))
        self.observation = int(re.match(r"observation (\d+)", out).group(1))
        self.open = True
        self.last = parse(out)
        return self.last

    def observe(self, *flags):
        dt, code, out, err = bench.run_turn(self.root, "observe", "--session", SESSION, *flags)
        if code != 0:
            raise Failed(f"observe {' '.join(flags)}: exit {code}: {out}{err}")
        self.turns += 1
        self.observe_ms.append(dt)
        return self.seen(out)

    def act(self, *words, view=()):
        """One verb. Refs keep their number within a document, but only the latest
        observation's refs are accepted and every action ends it. Two-call mode: after an
        action, the next one first observes what changed (`--since`, a few lines) to open a new
        observation; returns None. One-call mode: the action answers with the observation that
        follows it (the whole view, shaped by `view` when given); returns its lines."""
        if not self.one_call and not self.open:
            self.observe("--since", str(self.observation))
        self.open = False
        self.last = None
        extra = ("--observe", *view) if self.one_call else ()
        dt, code, out, err = bench.run_turn(self.root, *words, "--session", SESSION, *extra)
        self.turns += 1
        self.act_ms.append(dt)
        if code != 0:
            raise Failed(f"{' '.join(words)}: exit {code}: {(out + err).strip()}")
        if not self.one_call:
            return None
        part = observation_part(out)
        if part is None:
            raise Failed(f"{' '.join(words)} --observe answered no observation: {out.strip()}")
        return self.seen(part)

    def current(self):
        """The lines of an open observation: the latest one when it is open, else a new one."""
        return self.last if self.open and self.last is not None else self.observe()

    def changes_after(self, since, settle_ms, want, tries=5, seen=None):
        """Observe `--since` the observation before an action (waiting `--settle-ms` for a page
        that opens things on a timer) until a line `want` accepts was added, at most `tries`
        times. `seen`: the diff the action itself answered with (one-call mode, after the same
        settle), looked at first and counted as one of the tries."""
        if seen is not None:
            found = [l for l in seen if l.mark == "+" and want(l)]
            if found:
                return found[0]
            tries -= 1
        for _ in range(tries):
            lines = self.observe("--since", str(since), "--settle-ms", str(settle_ms))
            found = [l for l in lines if l.mark == "+" and want(l)]
            if found:
                return found[0]
        raise Failed(f"nothing appeared since observation {since}")


class Failed(Exception):
    """The episode could not be done (a turn was refused or failed, or the page lacks what the
    task names)."""


class NotExpressible(Exception):
    """The task cannot be stated in what the observation shows (the reason is the message)."""


def query(lines):
    """The task's instruction: the page text before the first control, joined."""
    out = []
    for l in lines:
        if l.ref:
            break
        out.append(l.text)
    return re.sub(r"\s+", " ", " ".join(out)).strip()


def find(lines, role=None, name=None, after=None):
    """The first control with `role` (and `name`), after the text line `after` when given."""
    start = 0
    if after is not None:
        start = next((i for i, l in enumerate(lines) if not l.ref and l.text == after), None)
        if start is None:
            raise Failed(f"no text {after!r}")
    for l in lines[start:]:
        if l.ref and (role is None or l.role == role) and (name is None or l.text == name):
            return l
    raise Failed(f"no {role or 'control'} {name!r}" + (f" after {after!r}" if after else ""))


def need(pattern, text):
    m = re.search(pattern, text)
    if not m:
        raise Failed(f"instruction {text!r} does not match {pattern!r}")
    return m


def form(pattern, fields, button):
    """A form task: fill the instruction's groups (`pattern`) into the textboxes that follow the
    texts of `fields` (label text → group number; None: the first textbox), then click
    `button`."""

    def solve(a, lines):
        m = need(pattern, query(lines))
        for label, group in fields:
            a.act("fill", find(lines, "textbox", after=label).ref, m.group(group))
        a.act("click", find(lines, "button", button).ref)

    return solve


login_user = form(r'username "?\s*(\S+?)\s*"? and the password "?\s*(\S+?)\s*"? into', [("Username", 1), ("Password", 2)], "Login")
enter_text = form(r'Enter "\s*(.+?)\s*" into', [(None, 1)], "Submit")
enter_password = form(r'password "\s*(\S+?)\s*" into', [("Password", 1), ("Verify password", 1)], "Submit")


def choose_list(a, lines):
    m = need(r"Select (.+) from the list", query(lines))
    a.act("select", find(lines, "combobox").ref, m.group(1))
    a.act("click", find(lines, "button", "Submit").ref)


def click_option(a, lines):
    m = need(r"Select (\S+) and click Submit", query(lines))
    a.act("check", find(lines, "radio", m.group(1)).ref)
    a.act("click", find(lines, "button", "Submit").ref)


def click_checkboxes(a, lines):
    m = need(r"Select (.*) and click Submit", query(lines))
    wanted = [] if m.group(1) == "nothing" else [w.strip() for w in m.group(1).split(",")]
    for name in wanted:
        a.act("check", find(lines, "checkbox", name).ref)
    a.act("click", find(lines, "button", "Submit").ref)


def click_menu(a, lines):
    path = need(r"Select (.+)$", query(lines)).group(1).split(">")
    item = find(lines, "menuitem", path[0])
    for name in path[1:]:
        since = a.observation
        # A submenu opens on hover after the menu's own delay: settle, then read what appeared.
        seen = a.act("hover", item.ref, view=("--since", str(since), "--settle-ms", "400"))
        item = a.changes_after(since, 400, lambda l: l.role == "menuitem" and l.text == name, seen=seen)
    a.act("click", item.ref)


def click_menu_2(a, lines):
    q = query(lines)
    m = re.search(r'item labeled "(.+?)"', q)
    if not m:
        raise NotExpressible("the item is named by an icon (a CSS background image with no text or accessible name)")
    label = m.group(1)
    since = a.observation
    seen = a.act("click", find(lines, "button", "Menu").ref, view=("--settle-ms", "50"))
    if seen is None or not any(l.role == "menuitem" for l in seen):
        a.changes_after(since, 50, lambda l: l.role == "menuitem")
        seen = None
    lines = seen if seen is not None else a.observe()
    items = [l for l in lines if l.role == "menuitem"]
    target = next((l for l in items if l.text == label), None)
    if target is None:
        # Inside a submenu: hover the enabled items in turn until it shows.
        for parent in [l for l in items if "disabled" not in l.states]:
            since = a.observation
            seen = a.act("hover", parent.ref, view=("--since", str(since), "--settle-ms", "400"))
            try:
                want = lambda l: l.role == "menuitem" and l.text == label
                target = a.changes_after(since, 400, want, tries=1, seen=seen)
                break
            except Failed:
                continue
    if target is None:
        raise Failed(f"no menu item {label!r}")
    a.act("click", target.ref)


def drag_box(a, lines):
    small, large = find(lines, name="s"), find(lines, name="L")
    a.act("drag", small.ref, large.ref)
    a.act("click", find(lines, "button", "Submit").ref)


ORDINAL = {"top": 1, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}


def drag_items(a, lines):
    m = need(r"Drag (.+?) (to the (\w+)(?: position)?|up by one position|down by one position|to the bottom)\.", query(lines))
    items = [l for l in lines if l.role == "listitem"]
    names = [l.text for l in items]
    if m.group(1) not in names:
        raise Failed(f"no item {m.group(1)!r} in {names}")
    at = names.index(m.group(1))
    how = m.group(2)
    if how.startswith("up"):
        to = at - 1
    elif how.startswith("down"):
        to = at + 1
    elif how == "to the bottom":
        to = len(items) - 1
    else:
        to = ORDINAL[m.group(3)] - 1
    if to == at:
        raise NotExpressible("the item is already there")
    # A jQuery UI sortable moves an item past another only once the pointer crosses that item's
    # middle: release just inside the destination's far edge (its bottom moving down).
    edge = "bottom" if to > at else "top"
    a.act("drag", items[at].ref, items[to].ref, "--edge", edge)


def scroll_text(a, lines):
    area = find(lines, "textbox")
    # The default view cuts a value at 80 characters: read the whole one at the textarea.
    full = a.observe("--full", "--scope", area.ref)
    value = find(full, "textbox").value or ""
    if value.endswith("…"):
        raise NotExpressible("the text is longer than a --full view shows of a value (1,000 characters)")
    word = re.sub(r"[^A-Za-z0-9]", "", value.split()[-1])
    lines = a.observe()
    answer = [l for l in lines if l.role == "textbox"][1]
    a.act("fill", answer.ref, word)
    a.act("click", find(lines, "button", "Submit").ref)


def scroll_text_2(a, lines):
    where = need(r"to the (bottom|top) of the text", query(lines)).group(1)
    area = find(lines, "textbox")
    a.act("scroll", "down" if where == "bottom" else "up", area.ref, "--by", "5000")
    a.act("click", find(lines, "button", "Submit").ref)


# (kind, task, solver)
TASKS = [
    ("form", "login-user", login_user),
    ("form", "enter-text", enter_text),
    ("form", "enter-password", enter_password),
    ("list", "choose-list", choose_list),
    ("list", "click-option", click_option),
    ("menu", "click-menu", click_menu),
    ("menu", "click-menu-2", click_menu_2),
    ("checkbox", "click-checkboxes", click_checkboxes),
    ("drag", "drag-box", drag_box),
    ("drag", "drag-items", drag_items),
    ("scroll", "scroll-text", scroll_text),
    ("scroll", "scroll-text-2", scroll_text_2),
]


def reward_of(lines):
    """(episodes done, last reward) from the page's reward display."""
    texts = [l.text for l in lines if not l.ref]

    def after(label):
        i = texts.index(label) if label in texts else -1
        return texts[i + 1] if 0 <= i < len(texts) - 1 else None

    done, last = after("Episodes done:"), after("Last reward:")
    return (int(done) if done and done.isdigit() else None), (float(last) if last and last != "-" else None)


def episode(a, solve, url, verbose):
    """One episode: START by ref, the task's turns, then its reward from the page. Returns
    (outcome, reward, calls, bytes, ms): outcome `solved`, `failed: …` or `not expressible: …`.
    An episode the page did not reward is ended by loading the task again (`navigate`). In
    one-call mode the observation the last action answered with is the one read: for START,
    and for the reward."""
    turns0, bytes0 = a.turns, len(a.bytes)
    t0 = bench.time.perf_counter()
    # One-call mode reads the START cover in the view the last action answered with (the page
    # covers itself again when an episode ends); two-call mode observes, as an agent must.
    lines = a.current() if a.one_call else a.observe()
    if not any(l.ref and l.text == "START" for l in lines):
        lines = a.observe()
    done0, _ = reward_of(lines)
    first = a.act("click", find(lines, name="START").ref)
    lines = first = first if first is not None else a.observe()
    outcome = None
    try:
        solve(a, lines)
    except NotExpressible as e:
        outcome = f"not expressible: {e}"
    except Failed as e:
        outcome = f"failed: {e}"
    reward = None
    if outcome is None:
        for _ in range(REWARD_POLLS):
            done, last = reward_of(a.current())
            if done is not None and done0 is not None and done > done0:
                reward = last
                break
            a.open = False
        if reward is None:
            outcome = "failed: no reward shown"
        else:
            outcome = "solved" if reward > 0 else f"failed: reward {reward}"
    if reward is None:
        a.act("navigate", url)
    ms = (bench.time.perf_counter() - t0) * 1000
    if verbose and outcome != "solved":
        print(f"    {outcome} ({query(first)!r})", file=sys.stderr)
    return outcome, reward, a.turns - turns0, sum(a.bytes[bytes0:]), ms


def run_mode(root, origin, tasks, one_call):
    """Every task in one mode: one row per task."""
    rows = []
    a = Agent(root, one_call)
    mode = "one-call" if one_call else "two-call"
    for kind, task, solve in tasks:
        url = f"{origin}/miniwob/{task}.html"
        bench.cli(root, "navigate", url, "--session", SESSION)
        a.reset()
        a.open, a.last = False, None
        results = [episode(a, solve, url, True) for _ in range(EPISODES)]
        solved = [r for r in results if r[0] == "solved"]
        inexpressible = [r for r in results if r[0].startswith("not expressible")]
        rows.append({
            "mode": mode, "kind": kind, "task": task, "episodes": len(results), "solved": len(solved),
            "not_expressible": len(inexpressible),
            "why": sorted({r[0] for r in results if r[0] != "solved"}),
            "turns": bench.median([r[2] for r in results]),
            "calls_per_solved": bench.median([r[2] for r in solved]) if solved else None,
            "ms_per_solved": bench.median([r[4] for r in solved]) if solved else None,
            "bytes_per_observation": bench.median(a.bytes),
            "bytes_per_solved": (sum(r[3] for r in solved) // len(solved)) if solved else None,
            "observe_p50": bench.median(a.observe_ms), "act_p50": bench.median(a.act_ms),
            "turn_p50": bench.median(a.observe_ms + a.act_ms),
        })
        print(f"  {mode} {task}: {len(solved)}/{len(results)}", file=sys.stderr)
    return rows


def main():
    base = bench.miniwob_html()
    if base is None:
        raise SystemExit("MiniWoB++ is not installed: pip install miniwob==1.1.0")
    chosen = ARGS[2:]
    tasks = [t for t in TASKS if not chosen or t[1] in chosen]
    root = bench.tempfile.mkdtemp(prefix="a3s-bench-solve-")
    server, origin = bench.serve(root, base)
    load_before = bench.os.getloadavg()[0]
    rows = []
    try:
        bench.cli(root, "start", f"{origin}/miniwob/{tasks[0][1]}.html", "--session", SESSION, "--max-actions", "100000")
        for mode in MODES:
            rows += run_mode(root, origin, tasks, mode == "one-call")
        bench.cli(root, "finish", "--session", SESSION, "--status", "passed")
    finally:
        bench.abort(root, SESSION)
        bench.stop(server, group=True)
    print(f"MiniWoB++ 1.1.0 solved by refs ({bench.BIN}); {EPISODES} episodes per task; load average (1 min) {load_before:.2f} before, {bench.os.getloadavg()[0]:.2f} after")
    print("| mode | kind | task | solved | calls/episode | calls/solved | ms/solved (p50) | B/observation (median) | B/solved | call p50 ms | observe p50 ms | act p50 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    dash = lambda v, f="{}": f.format(v) if v is not None else "–"
    for r in rows:
        solved = f"{r['solved']}/{r['episodes']}" + (f" ({r['not_expressible']} not expressible)" if r["not_expressible"] else "")
        print(f"| {r['mode']} | {r['kind']} | {r['task']} | {solved} | {r['turns']} | {dash(r['calls_per_solved'])} | {dash(r['ms_per_solved'], '{:.0f}')} | {r['bytes_per_observation']} | {dash(r['bytes_per_solved'])} | {r['turn_p50']:.0f} | {r['observe_p50']:.0f} | {r['act_p50']:.0f} |")
    # Per mode, over the solved episodes of every task: the medians of the per-task figures.
    print("\n| mode | tasks solved (any episode) | calls/solved (median of tasks) | ms/solved (median of tasks) | call p50 ms (median of tasks) |")
    print("|---|---|---|---|---|")
    for mode in MODES:
        mine = [r for r in rows if r["mode"] == mode]
        solved = [r for r in mine if r["calls_per_solved"] is not None]
        calls = bench.median([r["calls_per_solved"] for r in solved]) if solved else None
        ms = bench.median([r["ms_per_solved"] for r in solved]) if solved else None
        print(f"| {mode} | {len(solved)}/{len(mine)} | {dash(calls)} | {dash(ms, '{:.0f}')} | {bench.median([r['turn_p50'] for r in mine]):.0f} |")
    for r in rows:
        for why in r["why"]:
            print(f"{r['mode']} {r['task']}: {why}")


if __name__ == "__main__":
    main()
