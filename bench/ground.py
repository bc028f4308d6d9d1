#!/usr/bin/env python3
"""Visual grounding round trip: `agent ground "Checkout"` on a 1280×720 screenshot of a page with
the Test Kit bridge ("Checkout" drawn on a canvas inside a button), answered by the reference
provider `a3s-test-ocr-grounding` (Tesseract) on loopback. Prints p50/p95 over TURNS calls of:
the whole CLI turn (process start included), the operation's own `timing` (`total_ms`,
`capture_ms` — the supervisor's screenshot turn, `provider_ms` — the provider call with its
transport, `map_ms` — the check turn: observation and pixels proven unchanged, the hit test), and
the boundary's own overhead, `total_ms - provider_ms`. The 1-minute load average is printed with
them: timings on a shared machine are noisy.

Usage: bench/ground.py [path/to/a3s-test] [turns] [--instant]
  (default target/release/a3s-test, 20; the provider binary is taken from the same folder, and
   the Test Kit from testkit/dist, built by ./scripts/setup.sh)
  --instant: instead of Tesseract, a provider in this script that answers at once with one box
   (the request's binding repeated): `provider call` is then the transport and the boundary's
   checks, with next to no provider work.
Starts its own page server (`a3s-test serve`), provider and session in a temporary project, and
stops all three at the end, also when it fails.
"""
import http.server, json, os, shutil, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/a3s-test")
TURNS = int(ARGS[1]) if len(ARGS) > 1 else 20
PROVIDER = os.path.join(os.path.dirname(BIN), "a3s-test-ocr-grounding")
KIT = os.path.join(HERE, "..", "testkit", "dist")
SESSION = "bench-ground"
INSTANT = "--instant" in sys.argv[1:]
# A3S_TEST_GROUND_TIMING=1: the front end's and the supervisor's phase lines are summarised too.
TIMING = os.environ.get("A3S_TEST_GROUND_TIMING") == "1"
PHASES = []


class Instant(http.server.BaseHTTPRequestHandler):
    """A grounding provider with no work to do: one box, the request's binding repeated."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        shot = body["request"]["screenshot"]
        answer = json.dumps({"status": "success", "protocol": body["protocol"], "response": {
            "provider": "ocr", "model": "tesseract", "observation_id": body["request"]["observation_id"],
            "screenshot_sha256": shot["sha256"],
            "boxes": [{"x": 40, "y": 100, "width": 200, "height": 40, "confidence": 0.9, "text": "Checkout"}],
            "usage": {"input_units": 1, "output_units": 1}, "cost_microusd": 0}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass

PAGE = """<!doctype html><html><head><title>Ground</title><style>
body { margin: 0; font-family: sans-serif; background: #fff; }
button { display: block; margin: 24px; padding: 4px; border: 2px solid #333; background: #fff; }
</style></head><body><h1>Shop</h1>
<button data-testid="checkout"><canvas width="240" height="60"></canvas></button>
<p>Totals, delivery and returns are shown at the next step.</p>
<script type="module">
import { installTestKit } from "/kit/index.js";
const g = document.querySelector("canvas").getContext("2d");
g.fillStyle = "#fff"; g.fillRect(0, 0, 240, 60);
g.fillStyle = "#000"; g.font = "bold 36px sans-serif"; g.fillText("Checkout", 16, 44);
installTestKit({ enabled: true, page: { id: "bench" } });
</script></body></html>"""


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def first_line(proc, what, within=60):
    t = time.time()
    line = proc.stdout.readline()
    if not line or time.time() - t > within:
        raise SystemExit(f"{what} printed nothing")
    return line.strip()


def agent(root, *args):
    t = time.perf_counter()
    out = subprocess.run([BIN, "agent", *args], cwd=root, capture_output=True, text=True, timeout=120)
    dt = (time.perf_counter() - t) * 1000
    if out.returncode != 0:
        raise SystemExit(f"agent {args}: {out.stdout}{out.stderr}")
    if TIMING:
        PHASES.extend(l for l in out.stderr.splitlines() if l.startswith("ground: "))
    return dt, json.loads(out.stdout)


def stop(proc):
    if proc and proc.poll() is None:
        for sig in (15, 9):
            try:
                os.killpg(proc.pid, sig)
                proc.wait(timeout=10)
                return
            except (OSError, subprocess.TimeoutExpired):
                pass


def summarise_phases(root):
    """p50 of each phase line A3S_TEST_GROUND_TIMING=1 printed: the front end's (stderr of each
    `agent ground`) and the supervisor's grounding turns (its log)."""
    import re
    cols = {}
    for line in PHASES[1:]:  # the warm-up call is not counted
        for name, value in re.findall(r"([a-z +]+?) (\d+(?:\.\d+)?) ms", line.split(": ", 1)[1]):
            cols.setdefault("front end: " + name.strip(" ,"), []).append(float(value))
    log = os.path.join(root, ".a3s-test", "agent-sessions", SESSION, "artifacts", "supervisor.log")
    with open(log) as f:
        for m in re.finditer(r"turn \d+ (ground_capture|ground_map): served in ([\d.]+) ms, recorded .* in ([\d.]+) ms", f.read()):
            cols.setdefault(f"supervisor {m[1]}: served", []).append(float(m[2]))
            cols.setdefault(f"supervisor {m[1]}: recorded", []).append(float(m[3]))
        f.seek(0)
        for m in re.finditer(r"ground_map: (proof|hit test|clipped capture|frame decoded) done after ([\d.]+) ms", f.read()):
            cols.setdefault(f"supervisor ground_map: {m[1]} done after", []).append(float(m[2]))
        f.seek(0)
        for m in re.finditer(r"ground_map: clip of .* decoded and compared in ([\d.]+) ms", f.read()):
            cols.setdefault("supervisor ground_map: clip decoded + compared", []).append(float(m[1]))
    print("phases (A3S_TEST_GROUND_TIMING=1)")
    for k, xs in cols.items():
        print(f"  {k:<44}{pct(xs, 50):>8.2f}{pct(xs, 95):>8.2f}")


def main():
    root = tempfile.mkdtemp(prefix="a3s-bench-ground-")
    site = os.path.join(root, "site")
    shutil.copytree(KIT, os.path.join(site, "kit"))
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write(PAGE)
    server = provider = None
    try:
        if INSTANT:
            instant = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Instant)
            threading.Thread(target=instant.serve_forever, daemon=True).start()
            address = "127.0.0.1:%d" % instant.server_address[1]
        else:
            provider = subprocess.Popen([PROVIDER, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True, start_new_session=True)
            address = first_line(provider, "the provider").split()[-1]
        server = subprocess.Popen([BIN, "serve", site, "--port", "0"], cwd=root, stdout=subprocess.PIPE, text=True, start_new_session=True)
        origin = first_line(server, "a3s-test serve").split()[-1].rstrip("/")
        os.makedirs(os.path.join(root, ".a3s-test"))
        with open(os.path.join(root, ".a3s-test", "project.acl"), "w") as f:
            f.write('project "bench" {\n  provider "ocr" {\n    kind = "visual_grounding"\n'
                    f'    endpoint = "http://{address}/ground"\n    model = "tesseract"\n'
                    '    timeout_ms = 30000\n    max_cost_microusd = 0\n  }\n}\n')
        agent(root, "start", f"{origin}/index.html", "--session", SESSION, "--json")
        until = time.time() + 30
        while True:
            _, obs = agent(root, "observe", "--session", SESSION, "--json")
            if obs.get("page_context", {}).get("ref_count", 0) >= 1:
                break
            if time.time() > until:
                raise SystemExit(f"no Page Context: {obs}")
        rows = {k: [] for k in ("wall", "total_ms", "capture_ms", "provider_ms", "map_ms", "overhead")}
        agent(root, "ground", "Checkout", "--session", SESSION, "--json")  # warm the provider
        for _ in range(TURNS):
            wall, g = agent(root, "ground", "Checkout", "--session", SESSION, "--json")
            if g["outcome"] != "located" and not INSTANT:
                raise SystemExit(f"not located: {g}")
            t = g["timing"]
            rows["wall"].append(wall)
            for k in ("total_ms", "capture_ms", "provider_ms", "map_ms"):
                rows[k].append(t[k])
            rows["overhead"].append(t["total_ms"] - t["provider_ms"])
        who = "an instant provider" if INSTANT else "Tesseract"
        print(f"grounding round trip, {TURNS} calls, 1280x720, {who}, load average {os.getloadavg()[0]:.2f}")
        print(f"{'measure':<28}{'p50 ms':>10}{'p95 ms':>10}")
        for k, label in (("wall", "CLI turn (process included)"), ("total_ms", "operation total"),
                         ("provider_ms", "provider call"), ("capture_ms", "screenshot turn"),
                         ("map_ms", "check + hit-test turn"), ("overhead", "boundary overhead")):
            print(f"{label:<28}{pct(rows[k], 50):>10.0f}{pct(rows[k], 95):>10.0f}")
        if TIMING:
            summarise_phases(root)
    finally:
        subprocess.run([BIN, "agent", "abort", "--session", SESSION], cwd=root, capture_output=True, timeout=60)
        stop(server)
        stop(provider)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
