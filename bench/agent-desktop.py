#!/usr/bin/env python3
"""Agent observe of a desktop program through the CLI (issue 38, docs/benchmarks.md).

Starts `agent start --gui -- PROGRAM` in a temporary folder, times N `agent observe --json --full`
calls end to end (the CLI process included), prints p50/p90 and the view's size, and aborts the
session; then times `BINARY --version` as many times (the CLI process alone, no turn). The
program gets private settings and data folders (mousepad restores an earlier session's
documents). The driver's side, by its parts: `gui/examples/bench_observe.rs`.
Usage: bench/agent-desktop.py [BINARY] [PROGRAM] [N]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/a3s-test"
program = sys.argv[2] if len(sys.argv) > 2 else "mousepad"
count = int(sys.argv[3]) if len(sys.argv) > 3 else 25

with tempfile.TemporaryDirectory() as folder:
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env[name] = os.path.join(folder, name.lower())

    def agent(*args):
        return subprocess.run([binary, "agent", *args], cwd=folder, env=env, capture_output=True, timeout=90,
                              check=True).stdout

    agent("start", "--session", "bench", "--json", "--gui", "--", program)
    try:
        times, seen = [], None
        for _ in range(count):
            started = time.perf_counter()
            seen = json.loads(agent("observe", "--session", "bench", "--json", "--full"))
            times.append((time.perf_counter() - started) * 1000)
        times = sorted(times[3:])
        print(f"{program}: observe p50 {statistics.median(times):.1f} ms, p90 "
              f"{times[int(len(times) * 0.9)]:.1f} ms; {seen['ref_count']} refs, {len(seen['lines'])} lines")
    finally:
        agent("abort", "--session", "bench", "--json")
    alone = []
    for _ in range(count):
        started = time.perf_counter()
        subprocess.run([binary, "--version"], capture_output=True, timeout=30, check=True)
        alone.append((time.perf_counter() - started) * 1000)
    print(f"the CLI process alone ({binary} --version): p50 {statistics.median(alone):.1f} ms")
