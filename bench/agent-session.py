#!/usr/bin/env python3
"""Agent-session turn latency: p50/p95 of `agent start` (STARTS fresh sessions), `observe`,
`click` and `press KEY @ref` on a 20-control form, and of an agent turn in one call (a click
that answers with the observation that follows it: `click @ref --observe`, and `test_act`,
whose default that is, each acting on a ref of the observation the previous call answered), as CLI
turns (one `a3s-test agent …` process per turn) and as MCP calls (one `a3s-test mcp` process,
one JSON-RPC line per call), plus bytes per observation — on the form, and then on every page
of tests/fixtures/web and, when the `miniwob` package (MiniWoB++ 1.1.0, `pip install
miniwob==1.1.0`) is installed, on its task pages, each served on loopback: text and `--json`
bytes of the default view (median over pages) and observe p50 per page. Timings on a shared machine are noisy:
the 1-minute load average is printed with them. `A3S_TEST_CDP_TRACE=1` in the environment makes
each session's supervisor log every CDP command's round trip to `artifacts/supervisor.log`.

Solving the MiniWoB++ tasks by refs is `bench/miniwob-solve.py`, which loads this file for its
helpers (`run_turn`, `cli`, `serve`, `abort`, `stop`, `median`, `miniwob_html`).

Usage: bench/agent-session.py [path/to/a3s-test] [turns] [--pages-only]
  (default target/release/a3s-test, 50; --pages-only runs the page sweeps alone)
Starts its own loopback page server (`a3s-test serve`) and sessions; closes both at the end, also
when it fails (the sessions are aborted, the MCP process and the page server are killed).
"""
import json, os, queue, subprocess, sys, tempfile, threading, time

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
PAGES_ONLY = "--pages-only" in sys.argv[1:]
BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/a3s-test")
TURNS = int(ARGS[1]) if len(ARGS) > 1 else 50
# Longest wait for one line from a child (a page server's address, an MCP reply).
REPLY_DEADLINE = 120
# `agent start` is timed this many times (start, then abort, each a fresh browser).
STARTS = 5
SESSIONS = ("bench", "bench-mcp", "bench-fixtures", "bench-miniwob") + tuple(f"bench-start-{i}" for i in range(STARTS))
# Observations per page in the page sweep (the first one warms the page's code paths).
PAGE_TURNS = 5

fields = "".join(f'<label for="f{i}">Field {i}</label><input id="f{i}">\n' for i in range(1, 18))
PAGE = f"""<!doctype html><title>Form</title><h1>Sign up</h1><form>
<label for="email">Email</label><input id="email" placeholder="you@example.com">
{fields}<label><input type="checkbox" id="tos"> Accept terms</label><button type="button">Send</button></form>"""


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def run_turn(root, *args):
    """One `a3s-test agent …` turn: (milliseconds, exit code, stdout, stderr)."""
    t = time.perf_counter()
    out = subprocess.run([BIN, "agent", *args], cwd=root, capture_output=True, text=True, timeout=120)
    return (time.perf_counter() - t) * 1000, out.returncode, out.stdout, out.stderr


def cli(root, *args):
    """One turn that must succeed: (milliseconds, stdout)."""
    dt, code, out, err = run_turn(root, *args)
    if code != 0:
        raise SystemExit(f"{args}: {out}{err}")
    return dt, out


def lines(stream):
    """A queue of `stream`'s lines, read on a daemon thread; `None` marks the end."""
    q = queue.Queue()

    def pump():
        for line in stream:
            q.put(line)
        q.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return q


def next_line(q, what):
    """The next line from `q` within REPLY_DEADLINE, or stop the benchmark."""
    try:
        line = q.get(timeout=REPLY_DEADLINE)
    except queue.Empty:
        raise SystemExit(f"{what}: no reply within {REPLY_DEADLINE} s")
    if line is None:
        raise SystemExit(f"{what}: the process closed its output")
    return line


def stop(proc, group):
    """Stop `proc` (its whole process group when it leads one: TERM, then KILL) and reap it."""
    if proc is None or proc.poll() is not None:
        return
    for sig in (15, 9):
        try:
            if group:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
            proc.wait(timeout=10)
            return
        except (OSError, subprocess.TimeoutExpired):
            pass


def abort(root, session):
    """Abort `session` if it is still open (its supervisor closes the browser); ignore errors."""
    try:
        subprocess.run([BIN, "agent", "abort", "--session", session], cwd=root, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        pass


def median(xs):
    return pct(xs, 50) if xs else 0


def serve(root, folder):
    """`a3s-test serve folder` on a free loopback port: (process, origin)."""
    proc = subprocess.Popen([BIN, "serve", folder, "--port", "0"], cwd=root, stdout=subprocess.PIPE, text=True, start_new_session=True)
    return proc, next_line(lines(proc.stdout), "a3s-test serve").split()[-1].rstrip("/")


def page_sweep(root, session, title, folder, pages, start=None):
    """Observe each of `pages` (paths under `folder`) in one session: bytes of the default text
    view and of `--json`, and the observe p50; prints one row per page and the medians."""
    server, origin = serve(root, folder)
    try:
        cli(root, "start", f"{origin}/{pages[0]}", "--session", session, "--max-actions", "2000")
        rows = []
        for page in pages:
            cli(root, "navigate", f"{origin}/{page}", "--session", session)
            if start:
                start(root, session)
            times, text_b, json_b = [], [], []
            for _ in range(PAGE_TURNS):
                dt, out = cli(root, "observe", "--session", session)
                times.append(dt)
                text_b.append(len(out.encode()))
                _, out = cli(root, "observe", "--session", session, "--json")
                json_b.append(len(out.encode()))
            refs = json.loads(out)["ref_count"]
            rows.append((page, refs, median(text_b), median(json_b), median(times)))
        cli(root, "finish", "--session", session, "--status", "passed")
    finally:
        abort(root, session)
        stop(server, group=True)
    print(f"\n{title}: {len(rows)} pages, {PAGE_TURNS} observations each (default view, 4096-byte budget)")
    print("| page | refs | text B | --json B | observe p50 ms |")
    print("|---|---|---|---|---|")
    for page, refs, t, j, ms in rows:
        print(f"| {page} | {refs} | {t} | {j} | {ms:.1f} |")
    print(f"median over pages: text {median([r[2] for r in rows])} B, --json {median([r[3] for r in rows])} B, observe p50 {median([r[4] for r in rows]):.1f} ms")


def start_episode(root, session):
    """A MiniWoB++ task shows a START cover until it is clicked: click it (tasks without one are
    observed as they are)."""
    subprocess.run([BIN, "agent", "click", 'css("#sync-task-cover")', "--session", session], cwd=root, capture_output=True, timeout=60)


def miniwob_html():
    """The `html` folder of an installed MiniWoB++ (found without importing the package, which
    would register its gym environments), or None."""
    import importlib.util

    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        return None
    base = os.path.join(list(spec.submodule_search_locations)[0], "html")
    return base if os.path.isdir(base) else None


def miniwob_pages():
    """(html folder, task pages) of an installed MiniWoB++, or None."""
    base = miniwob_html()
    if base is None:
        return None
    tasks = os.path.join(base, "miniwob")
    if not os.path.isdir(tasks):
        return None
    pages = sorted(f"miniwob/{f}" for f in os.listdir(tasks) if f.endswith(".html"))
    return base, pages


def sweeps(root):
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "web")
    pages = sorted(f for f in os.listdir(fixtures) if f.endswith(".html") and f != "frame-child.html")
    page_sweep(root, "bench-fixtures", "Fixture pages (tests/fixtures/web)", os.path.abspath(fixtures), pages)
    found = miniwob_pages()
    if found:
        page_sweep(root, "bench-miniwob", "MiniWoB++ 1.1.0 task pages", *found, start=start_episode)
    else:
        print("\nMiniWoB++ not installed (pip install miniwob==1.1.0): its pages were skipped")


def main():
    root = tempfile.mkdtemp(prefix="a3s-bench-agent-")
    if PAGES_ONLY:
        try:
            sweeps(root)
        finally:
            for session in SESSIONS:
                abort(root, session)
        return
    os.makedirs(f"{root}/pages")
    with open(f"{root}/pages/form.html", "w") as f:
        f.write(PAGE)
    server = subprocess.Popen([BIN, "serve", "pages", "--port", "0"], cwd=root, stdout=subprocess.PIPE, text=True, start_new_session=True)
    mcp = None
    load_before = os.getloadavg()[0]
    try:
        url = next_line(lines(server.stdout), "a3s-test serve").split()[-1].rstrip("/") + "/form.html"
        start_ms = []
        for i in range(STARTS):
            dt, _ = cli(root, "start", url, "--session", f"bench-start-{i}")
            start_ms.append(dt)
            cli(root, "abort", "--session", f"bench-start-{i}")
        cli(root, "start", url, "--session", "bench")
        obs_ms, click_ms, press_ms, text_bytes, json_bytes = [], [], [], [], []
        for _ in range(TURNS):
            dt, out = cli(root, "observe", "--session", "bench")
            obs_ms.append(dt)
            text_bytes.append(len(out.encode()))
            _, out = cli(root, "observe", "--session", "bench", "--json")
            json_bytes.append(len(out.encode()))
            ref = next(r["ref"] for r in json.loads(out)["lines"] if r.get("role") == "checkbox" and "ref" in r)
            dt, _ = cli(root, "click", ref, "--session", "bench")
            click_ms.append(dt)
            # `press KEY @ref`: focus and key in one statement (Tab: no form submit).
            _, out = cli(root, "observe", "--session", "bench", "--json")
            ref = next(r["ref"] for r in json.loads(out)["lines"] if r.get("role") == "textbox" and "ref" in r)
            dt, _ = cli(root, "press", "Tab", ref, "--session", "bench")
            press_ms.append(dt)
        # One call per turn: each click answers with the next observation (JSON), whose
        # checkbox ref the next click takes.
        _, out = cli(root, "observe", "--session", "bench", "--json")
        seen = json.loads(out)
        turn_ms = []
        for _ in range(TURNS):
            ref = next(r["ref"] for r in seen["lines"] if r.get("role") == "checkbox" and "ref" in r)
            dt, out = cli(root, "click", ref, "--session", "bench", "--observation", str(seen["observation"]), "--observe", "--json")
            turn_ms.append(dt)
            seen = json.loads(out)["observation"]
        cli(root, "finish", "--session", "bench", "--status", "passed")

        mcp = subprocess.Popen([BIN, "mcp"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        replies = lines(mcp.stdout)
        n = [0]

        def call(method, params):
            n[0] += 1
            mcp.stdin.write(json.dumps({"jsonrpc": "2.0", "id": n[0], "method": method, "params": params}) + "\n")
            mcp.stdin.flush()
            t = time.perf_counter()
            line = next_line(replies, f"MCP {method}")
            reply = json.loads(line)
            assert reply.get("id") == n[0], reply
            return (time.perf_counter() - t) * 1000, reply

        call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        tool = lambda name, args: call("tools/call", {"name": name, "arguments": args})
        tool("test_session_start", {"session": "bench-mcp", "url": url})
        mobs, mclick, mbytes = [], [], []
        for _ in range(TURNS):
            dt, r = tool("test_observe", {"session": "bench-mcp"})
            mobs.append(dt)
            s = r["result"]["structuredContent"]
            mbytes.append(len(json.dumps(s).encode()))
            ref = next(x["ref"] for x in s["lines"] if x.get("role") == "checkbox" and "ref" in x)
            # The action alone (`observe: false`), as before actions answered with a view.
            dt, r = tool("test_act", {"session": "bench-mcp", "observe": False, "action": {"action": "click", "target": ref}})
            assert not r["result"]["isError"], r
            mclick.append(dt)
        # One call per turn (the default): the click and the observation that follows it; the
        # next click takes its ref from that observation.
        _, r = tool("test_observe", {"session": "bench-mcp"})
        seen = r["result"]["structuredContent"]
        mturn, mturn_bytes = [], []
        for _ in range(TURNS):
            ref = next(x["ref"] for x in seen["lines"] if x.get("role") == "checkbox" and "ref" in x)
            dt, r = tool("test_act", {"session": "bench-mcp", "observation": seen["observation"], "action": {"action": "click", "target": ref}})
            assert not r["result"]["isError"], r
            mturn.append(dt)
            answer = r["result"]["structuredContent"]
            mturn_bytes.append(len(json.dumps(answer).encode()))
            seen = answer["observation"]
        tool("test_finish", {"session": "bench-mcp", "status": "passed"})
        mcp.stdin.close()
        mcp.wait(timeout=30)
        print(f"turns per measure: {TURNS}; controls on the page: 20; load average (1 min) {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
        print("| measure | p50 ms | p95 ms |")
        print("|---|---|---|")
        for name, xs in [("CLI agent start", start_ms), ("CLI observe", obs_ms), ("CLI click @ref", click_ms), ("CLI press Tab @ref", press_ms), ("CLI click @ref --observe (one call)", turn_ms), ("MCP test_observe", mobs), ("MCP test_act click (observe: false)", mclick), ("MCP test_act click + observation (one call)", mturn)]:
            print(f"| {name} | {pct(xs, 50):.1f} | {pct(xs, 95):.1f} |")
        print(f"observation bytes: text {pct(text_bytes, 50)}, --json {pct(json_bytes, 50)}, MCP structuredContent {pct(mbytes, 50)}; one-call MCP answer {pct(mturn_bytes, 50)}")
        sweeps(root)
        print(f"session folders (events.jsonl, artifacts/supervisor.log): {root}/.a3s-test/agent-sessions")
    finally:
        # After a failure the sessions may still be up; after success aborting them is refused.
        for session in SESSIONS:
            abort(root, session)
        stop(mcp, group=False)
        stop(server, group=True)


if __name__ == "__main__":
    main()
