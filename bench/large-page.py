#!/usr/bin/env python3
"""Observe of a page of 20,000 elements (tests/fixtures/web/large.html: 5,000 rows of three
buttons, built by the page's own script; nothing changes after load), issue 28: OBSERVATIONS
consecutive `agent observe --full --json` turns in one session — wall time per turn (p50, min,
max), the ref count of each, whether every observation listed the same refs with the same names
in the same order, whether `observe --since` the previous one reports any change, and the cut
marker of the last one. One CLI process per turn, as an agent calls it.

Usage: bench/large-page.py [path/to/a3s-test] [observations]
  (default target/release/a3s-test, 5). Give an older binary to measure "before".
Starts its own loopback page server (`a3s-test serve`) and session, and closes both at the end,
also when it fails.
"""
import importlib.util
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("agent_session", os.path.join(HERE, "agent-session.py"))
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

ARGS = sys.argv[1:]
bench.BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/a3s-test")
OBSERVATIONS = int(ARGS[1]) if len(ARGS) > 1 else 5
SESSION = "bench-large"
FIXTURES = os.environ.get("LARGE_PAGE_DIR") or os.path.join(HERE, "..", "tests", "fixtures", "web")


def listed(view):
    """(ref, role, name) of every control line of a JSON observation, in order."""
    return [(l["ref"], l.get("role"), l.get("name")) for l in view.get("lines", []) if "ref" in l]


def main():
    root = tempfile.mkdtemp(prefix="a3s-large-")
    server, origin = bench.serve(root, os.path.abspath(FIXTURES))
    try:
        bench.cli(root, "start", f"{origin}/large.html", "--session", SESSION)
        times, counts, views, failures = [], [], [], 0
        for _ in range(OBSERVATIONS):
            ms, code, out, err = bench.run_turn(root, "observe", "--full", "--json", "--session", SESSION)
            times.append(ms)
            if code != 0:
                failures += 1
                print(f"observe failed ({ms:.0f} ms): {(out + err).strip()[:300]}")
                continue
            view = json.loads(out)
            counts.append(view.get("ref_count"))
            views.append(view)
        same = bool(views) and all(listed(v) == listed(views[0]) for v in views)
        since = None
        if views:
            n = str(views[-1]["observation"])
            _, code, out, err = bench.run_turn(root, "observe", "--since", n, "--json", "--session", SESSION)
            since = len(json.loads(out).get("changes", [])) if code == 0 else f"failed: {(out + err)[:200]}"
        print(f"large page (20,000 elements, 15,000 buttons) observed {OBSERVATIONS} times with {bench.BIN}; "
              f"load average (1 min) {os.getloadavg()[0]:.2f}")
        print(f"observe ms: p50 {bench.median(times):.0f}, min {min(times):.0f}, max {max(times):.0f}; failed {failures}")
        print(f"refs per observation: {counts}; same refs, names and order every time: {same}")
        print(f"changes reported by --since the previous observation: {since}")
        if views:
            print(f"cut marker: {views[-1].get('truncation')}")
    finally:
        bench.abort(root, SESSION)
        bench.stop(server, True)


if __name__ == "__main__":
    main()
