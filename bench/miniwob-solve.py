#!/usr/bin/env python3
"""MiniWoB++ 1.1.0 tasks solved by refs alone: a scripted agent that reads only the CLI's default
text observation (`agent observe`, and `--since N` diffs where it waits for something to appear)
and acts only through the verbs with `@eN` refs — never a CSS selector, never page JavaScript —
starts each episode by clicking the task's own START cover by ref and reads the episode's reward
from the page's reward display ("Last reward:") in the observation.

Per task it prints: solved/episodes (an episode is solved when the page's reward is > 0), turns
(CLI processes) per episode, bytes per observation (median) and per solved task (all
observations of the solved episodes / solved episodes), and the p50 time per turn (observe and
act). The 1-minute load average is printed with the timings (a shared machine is noisy).

Usage: bench/miniwob-solve.py [path/to/a3s-test] [episodes] [task…]
  (default target/release/a3s-test, 5 episodes, every task below; needs `pip install
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


class Agent:
    """The turns of one session, with what each cost."""

    def __init__(self, root):
        self.root = root
        self.observation = None
        # Whether the latest observation is still open (every action ends one).
        self.open = False
        self.turns, self.bytes, self.observe_ms, self.act_ms = 0, [], [], []

    def observe(self, *flags):
        dt, code, out, err = bench.run_turn(self.root, "observe", "--session", SESSION, *flags)
        if code != 0:
            raise Failed(f"observe {' '.join(flags)}: exit {code}: {out}{err}")
        self.turns += 1
        self.observe_ms.append(dt)
        self.bytes.append(len(out.encode()))
        self.observation = int(re.match(r"observation (\d+)", out).group(1))
        self.open = True
        return parse(out)

    def act(self, *words):
        """One verb. Refs keep their number within a document, but only the latest
        observation's refs are accepted and every action ends it: after an action, the next one
        first observes what changed (`--since`, a few lines) to open a new observation."""
        if not self.open:
            self.observe("--since", str(self.observation))
        self.open = False
        dt, code, out, err = bench.run_turn(self.root, *words, "--session", SESSION)
        self.turns += 1
        self.act_ms.append(dt)
        if code != 0:
            raise Failed(f"{' '.join(words)}: exit {code}: {(out + err).strip()}")

    def changes_after(self, since, settle_ms, want, tries=5):
        """Observe `--since` the observation before an action (waiting `--settle-ms` for a page
        that opens things on a timer) until a line `want` accepts was added, at most `tries`
        times."""
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
        a.act("hover", item.ref)
        item = a.changes_after(since, 400, lambda l: l.role == "menuitem" and l.text == name)
    a.act("click", item.ref)


def click_menu_2(a, lines):
    q = query(lines)
    m = re.search(r'item labeled "(.+?)"', q)
    if not m:
        raise NotExpressible("the item is named by an icon (a CSS background image with no text or accessible name)")
    label = m.group(1)
    since = a.observation
    a.act("click", find(lines, "button", "Menu").ref)
    a.changes_after(since, 50, lambda l: l.role == "menuitem")
    lines = a.observe()
    items = [l for l in lines if l.role == "menuitem"]
    target = next((l for l in items if l.text == label), None)
    if target is None:
        # Inside a submenu: hover the enabled items in turn until it shows.
        for parent in [l for l in items if "disabled" not in l.states]:
            since = a.observation
            a.act("hover", parent.ref)
            try:
                target = a.changes_after(since, 400, lambda l: l.role == "menuitem" and l.text == label, tries=1)
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
    (outcome, reward, turns, bytes): outcome `solved`, `failed: …` or `not expressible: …`. An
    episode the page did not reward is ended by loading the task again (`navigate`)."""
    turns0, bytes0 = a.turns, len(a.bytes)
    lines = a.observe()
    done0, _ = reward_of(lines)
    a.act("click", find(lines, name="START").ref)
    lines = first = a.observe()
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
            done, last = reward_of(a.observe())
            if done is not None and done0 is not None and done > done0:
                reward = last
                break
        if reward is None:
            outcome = "failed: no reward shown"
        else:
            outcome = "solved" if reward > 0 else f"failed: reward {reward}"
    if reward is None:
        a.act("navigate", url)
    if verbose and outcome != "solved":
        print(f"    {outcome} ({query(first)!r})", file=sys.stderr)
    return outcome, reward, a.turns - turns0, sum(a.bytes[bytes0:])


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
    a = Agent(root)
    try:
        bench.cli(root, "start", f"{origin}/miniwob/{tasks[0][1]}.html", "--session", SESSION, "--max-actions", "100000")
        for kind, task, solve in tasks:
            url = f"{origin}/miniwob/{task}.html"
            bench.cli(root, "navigate", url, "--session", SESSION)
            a.turns, a.bytes, a.observe_ms, a.act_ms = 0, [], [], []
            results = [episode(a, solve, url, True) for _ in range(EPISODES)]
            solved = [r for r in results if r[0] == "solved"]
            inexpressible = [r for r in results if r[0].startswith("not expressible")]
            rows.append({
                "kind": kind, "task": task, "episodes": len(results), "solved": len(solved),
                "not_expressible": len(inexpressible),
                "why": sorted({r[0] for r in results if r[0] != "solved"}),
                "turns": bench.median([r[2] for r in results]),
                "bytes_per_observation": bench.median(a.bytes),
                "bytes_per_solved": (sum(r[3] for r in solved) // len(solved)) if solved else None,
                "observe_p50": bench.median(a.observe_ms), "act_p50": bench.median(a.act_ms),
                "turn_p50": bench.median(a.observe_ms + a.act_ms),
            })
            print(f"  {task}: {len(solved)}/{len(results)}", file=sys.stderr)
        bench.cli(root, "finish", "--session", SESSION, "--status", "passed")
    finally:
        bench.abort(root, SESSION)
        bench.stop(server, group=True)
    print(f"MiniWoB++ 1.1.0 solved by refs ({bench.BIN}); {EPISODES} episodes per task; load average (1 min) {load_before:.2f} before, {bench.os.getloadavg()[0]:.2f} after")
    print("| kind | task | solved | turns/episode | B/observation (median) | B/solved task | turn p50 ms | observe p50 ms | act p50 ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        solved = f"{r['solved']}/{r['episodes']}" + (f" ({r['not_expressible']} not expressible)" if r["not_expressible"] else "")
        per = r["bytes_per_solved"] if r["bytes_per_solved"] is not None else "–"
        print(f"| {r['kind']} | {r['task']} | {solved} | {r['turns']} | {r['bytes_per_observation']} | {per} | {r['turn_p50']:.0f} | {r['observe_p50']:.0f} | {r['act_p50']:.0f} |")
    for r in rows:
        for why in r["why"]:
            print(f"{r['task']}: {why}")


if __name__ == "__main__":
    main()
