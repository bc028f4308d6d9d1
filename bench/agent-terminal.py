#!/usr/bin/env python3
"""Agent terminal turn latency: p50/p95 of one agent turn on a terminal session of `bc -q` — type
a text and get the screen that follows in the same call (`agent type … --observe`, and
`test_type`, whose default that is) — plus `agent observe` and `press Enter` with its
observation, as CLI turns (one `a3s-test agent …` process per turn) and as MCP calls (one
`a3s-test mcp` process, one JSON-RPC line per call). Each action names the observation the
previous call answered with, as an agent does. The 1-minute load average is printed with the
figures (the machine is shared).

Usage: bench/agent-terminal.py [path/to/a3s-test] [turns]   (default target/release/a3s-test, 50)
  SETTLE_MS=T in the environment passes `settle_ms` T to the MCP actions (default: the
  session's quiet period, 15 ms), to see what the quiet period costs.
Loads bench/agent-session.py for its helpers; aborts its sessions and stops the MCP process at
the end, also when it fails.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("agent_session", os.path.join(HERE, "agent-session.py"))
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
bench.BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/a3s-test")
TURNS = int(ARGS[1]) if len(ARGS) > 1 else 50
SESSIONS = ("bench-tui", "bench-tui-mcp")
SETTLE = {"settle_ms": int(os.environ["SETTLE_MS"])} if os.environ.get("SETTLE_MS") else {}


def row(name, xs):
    print(f"| {name} | {bench.pct(xs, 50):.1f} | {bench.pct(xs, 95):.1f} |")


def main():
    root = tempfile.mkdtemp(prefix="a3s-bench-tui-")
    mcp = None
    try:
        bench.cli(root, "start", "--session", "bench-tui", "--tui", "--", "bc", "-q")
        _, out = bench.cli(root, "observe", "--session", "bench-tui", "--json")
        seen = json.loads(out)
        observe_ms, type_ms, press_ms = [], [], []
        for i in range(TURNS):
            dt, out = bench.cli(root, "observe", "--session", "bench-tui", "--json")
            observe_ms.append(dt)
            seen = json.loads(out)
            dt, out = bench.cli(root, "type", f"{i}+1", "--session", "bench-tui", "--observation", str(seen["observation"]), "--observe", "--json")
            type_ms.append(dt)
            seen = json.loads(out)["observation"]
            dt, out = bench.cli(root, "press", "Enter", "--session", "bench-tui", "--observation", str(seen["observation"]), "--observe", "--json")
            press_ms.append(dt)
        bench.cli(root, "finish", "--session", "bench-tui", "--status", "passed")

        mcp = subprocess.Popen([bench.BIN, "mcp"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        replies = bench.lines(mcp.stdout)
        n = [0]

        def call(method, params):
            n[0] += 1
            mcp.stdin.write(json.dumps({"jsonrpc": "2.0", "id": n[0], "method": method, "params": params}) + "\n")
            mcp.stdin.flush()
            t = time.perf_counter()
            reply = json.loads(bench.next_line(replies, f"MCP {method}"))
            assert reply.get("id") == n[0], reply
            return (time.perf_counter() - t) * 1000, reply

        def tool(name, args):
            dt, r = call("tools/call", {"name": name, "arguments": args})
            assert not r["result"].get("isError"), r
            return dt, r["result"]["structuredContent"]

        call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        tool("test_session_start", {"session": "bench-tui-mcp", "tui": True, "program": ["bc", "-q"]})
        _, seen = tool("test_observe", {"session": "bench-tui-mcp"})
        mobserve, mtype, mpress, mbytes = [], [], [], []
        for i in range(TURNS):
            dt, seen = tool("test_observe", {"session": "bench-tui-mcp"})
            mobserve.append(dt)
            dt, done = tool("test_type", {"session": "bench-tui-mcp", "observation": seen["observation"], "text": f"{i}+1", **SETTLE})
            mtype.append(dt)
            mbytes.append(len(json.dumps(done).encode()))
            dt, _ = tool("test_press", {"session": "bench-tui-mcp", "observation": done["observation"]["observation"], "key": "Enter", **SETTLE})
            mpress.append(dt)
        tool("test_finish", {"session": "bench-tui-mcp", "status": "passed", "summary": "bench"})

        print(f"load average (1 min): {os.getloadavg()[0]:.2f}; {TURNS} turns each; bc -q, 80x24")
        print("| measure | p50 ms | p95 ms |")
        print("|---|---|---|")
        row("CLI `agent observe`", observe_ms)
        row("CLI `agent type TEXT --observe` (type + observe, one call)", type_ms)
        row("CLI `agent press Enter --observe`", press_ms)
        row("MCP `test_observe`", mobserve)
        row("MCP `test_type` (type + observe, one call, the default)", mtype)
        row("MCP `test_press` Enter (+ observe)", mpress)
        print(f"MCP `test_type` answer: median {bench.median(mbytes)} B")
    finally:
        for s in SESSIONS:
            bench.abort(root, s)
        bench.stop(mcp, False)


if __name__ == "__main__":
    main()
