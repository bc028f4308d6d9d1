#!/usr/bin/env python3
"""The cost of UI understanding for agents: `agent observe` against `agent observe --ui` on the
example app (examples/react-vite, its dev server with the Test Kit), as CLI turns (one
`a3s-test agent …` process per turn) — p50/p95 wall time and the bytes of the `--json` and text
answers of each, and how many `@uN` facts the page gave.

Usage: bench/observe-ui.py [path/to/a3s-test] [turns]
  (default target/release/a3s-test, 30). Needs `examples/react-vite` installed
  (`cd examples/react-vite && npm ci`; ./scripts/setup.sh does it).
Starts the example's dev server on a free port (its own process group) and one session; stops
both at the end, also when it fails.
"""
import json, os, signal, socket, subprocess, sys, tempfile, time

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/a3s-test")
TURNS = int(ARGS[1]) if len(ARGS) > 1 else 30
EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "react-vite")
TURN_DEADLINE = 90
SERVER_DEADLINE = 60


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def agent(root, *words):
    started = time.perf_counter()
    out = subprocess.run([BIN, "agent", *words, "--session", "ui-bench"], cwd=root,
                         capture_output=True, text=True, timeout=TURN_DEADLINE)
    took = (time.perf_counter() - started) * 1000
    if out.returncode != 0:
        raise SystemExit(f"agent {' '.join(words)} failed ({out.returncode}): {out.stdout}{out.stderr}")
    return took, out.stdout


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main():
    port = free_port()
    vite = os.path.join(EXAMPLE, "node_modules", ".bin", "vite")
    if not os.path.exists(vite):
        raise SystemExit("examples/react-vite is not installed: cd examples/react-vite && npm ci")
    server = subprocess.Popen([vite, "--port", str(port), "--strictPort", "--host", "127.0.0.1"],
                              cwd=EXAMPLE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    root = tempfile.mkdtemp(prefix="a3s-ui-bench-")
    url = f"http://127.0.0.1:{port}/"
    started = False
    try:
        until = time.time() + SERVER_DEADLINE
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > until:
                    raise SystemExit("the example's dev server did not listen within 60 s")
                time.sleep(0.2)
        agent(root, "start", url)
        started = True
        # Wait (bounded) until the Test Kit bridge answers: `observe --ui` refuses before it.
        until = time.time() + SERVER_DEADLINE
        while True:
            out = subprocess.run([BIN, "agent", "observe", "--ui", "--json", "--session", "ui-bench"],
                                 cwd=root, capture_output=True, text=True, timeout=TURN_DEADLINE)
            if out.returncode == 0:
                break
            if time.time() > until:
                raise SystemExit(f"no Test Kit bridge within 60 s: {out.stdout}")
        results = {}
        for label, extra in (("observe", []), ("observe --ui", ["--ui"])):
            times, json_bytes, text_bytes, facts = [], [], [], 0
            for i in range(TURNS):
                took, body = agent(root, "observe", *extra, "--json")
                times.append(took)
                json_bytes.append(len(body.encode()))
                facts = len(json.loads(body).get("ui", {}).get("refs", []))
                if i == 0:
                    text_bytes.append(len(agent(root, "observe", *extra)[1].encode()))
            results[label] = (times, json_bytes, text_bytes, facts)
        load = os.getloadavg()[0]
        print(f"{TURNS} turns each on {url} (1-minute load average {load:.2f})")
        for label, (times, json_bytes, text_bytes, facts) in results.items():
            print(f"{label:14} p50 {pct(times, 50):7.1f} ms  p95 {pct(times, 95):7.1f} ms  "
                  f"json {pct(json_bytes, 50)} B  text {text_bytes[0]} B  @uN facts {facts}")
        base = pct(results["observe"][0], 50)
        print(f"--ui adds {pct(results['observe --ui'][0], 50) - base:.1f} ms at p50")
    finally:
        if started:
            subprocess.run([BIN, "agent", "abort", "--session", "ui-bench"], cwd=root,
                           capture_output=True, timeout=TURN_DEADLINE)
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


if __name__ == "__main__":
    main()
