#!/usr/bin/env python3
"""Repair verification latency: wall time of `a3s-test agent repair-verify` from process start
to its verdict, on the one-button fixture app (tests/fixtures/repair-verify/) with one fast
focused check, including the fresh-browser proof of the ACL candidate. Budget: 1.5 s.

Each round is one real loop: a session on the app, the page sends its finding, `repair-drain`,
`repair-claim`, `repair-progress`, an edit of the served source file announced to the page as a
hot reload would, `repair-complete`, then the timed `repair-verify`. Only the verify is timed; it
must end `review_ready` with a proven candidate. Timings on a shared machine are noisy: the
1-minute load average is printed with them.

Usage: bench/repair-verify.py [path/to/a3s-test] [rounds]   (default target/release/a3s-test, 5)
Needs the built Test Kit (testkit/dist). Serves the app from its own loopback server and aborts
every session it started, also when it fails.
"""
import http.server, json, os, subprocess, sys, tempfile, threading, time

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/a3s-test")
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests/fixtures/repair-verify")
KIT = os.path.join(REPO, "testkit/dist")
FINDING = "finding-pay"
PROJECT = """project "bench" {
    verification {
        check "checkout" {
            tier = "focused"
            command = ["test", "-f", "src/Checkout.js"]
            file_prefixes = ["src/"]
        }
    }
}
"""
EDITED = """export function render(root) {
  root.innerHTML = '<button data-testid="pay">Pay</button>';
}
"""


class App:
    """The fixture app: the page, the Test Kit, the sources from `root`, and `/__hot`."""

    def __init__(self, root):
        self.root, self.version, self.changed = root, 1, threading.Condition()
        app = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                path, _, query = self.path.partition("?")
                kind, body = "text/plain", b""
                if path == "/__hot":
                    after = int(query.partition("=")[2] or -1)
                    with app.changed:
                        app.changed.wait_for(lambda: app.version > after, timeout=10)
                        body = str(app.version).encode()
                elif path == "/":
                    kind, body = "text/html", open(os.path.join(FIXTURE, "index.html"), "rb").read()
                elif path.startswith("/kit/") and ".." not in path:
                    kind, body = "text/javascript", open(os.path.join(KIT, path[5:]), "rb").read()
                elif path.startswith("/src/") and ".." not in path:
                    kind, body = "text/javascript", open(os.path.join(root, path[1:]), "rb").read()
                else:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def edit(self):
        with open(os.path.join(self.root, "src/Checkout.js"), "w") as f:
            f.write(EDITED)
        with self.changed:
            self.version += 1
            self.changed.notify_all()


def agent(root, *args, ok=True):
    out = subprocess.run([BIN, "agent", *args, "--json"], cwd=root, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "A3S_TEST_ROOT": root})
    if ok and out.returncode != 0:
        raise SystemExit(f"{args}: {out.stdout}{out.stderr}")
    return out


def one_round(n):
    root = tempfile.mkdtemp(prefix="a3s-bench-verify-")
    os.makedirs(os.path.join(root, ".a3s-test"))
    os.makedirs(os.path.join(root, "src"))
    with open(os.path.join(root, ".a3s-test/project.acl"), "w") as f:
        f.write(PROJECT)
    with open(os.path.join(FIXTURE, "src/Checkout.js")) as src, \
            open(os.path.join(root, "src/Checkout.js"), "w") as dst:
        dst.write(src.read())
    app = App(root)
    session = f"bench{n}"
    agent(root, "start", app.origin + "/", "--session", session)
    try:
        # Wait (bounded by the step's own timeout) until the page has sent its finding; an
        # `expect` would check once and race the page's send.
        agent(root, "exec", 'wait { visible = text("Sent") }', "--session", session)
        agent(root, "repair-drain", "--session", session)
        on = [FINDING, "--session", session]
        claim = json.loads(agent(root, "repair-claim", *on, "--request-id", "c").stdout)
        attempt = ["--attempt-id", claim["result"]["attempt_id"]]
        agent(root, "repair-progress", *on, "--request-id", "p", *attempt)
        app.edit()
        files = ["--changed-file", "src/Checkout.js"]
        agent(root, "repair-complete", *on, "--request-id", "d", *attempt, *files)
        t = time.perf_counter()
        out = agent(root, "repair-verify", *on, "--request-id", "v", *attempt, *files, ok=False)
        ms = (time.perf_counter() - t) * 1000
        v = json.loads(out.stdout)
        if out.returncode != 0 or v["result"]["to"] != "review_ready":
            raise SystemExit(f"verification did not pass: {out.stdout}{out.stderr}")
        proof = v["record"]["candidate"]["proof"]
        return ms, proof["durationMs"], sum(c["durationMs"] for c in v["record"]["checks"])
    finally:
        agent(root, "abort", "--session", session, ok=False)
        app.server.shutdown()


def main():
    rows = [one_round(n) for n in range(ROUNDS)]
    walls = sorted(r[0] for r in rows)
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    for wall, proof, checks in rows:
        print(f"repair-verify {wall:7.1f} ms  (proof {proof} ms, checks {checks} ms)")
    print(f"p50 {walls[len(walls) // 2]:.1f} ms, max {walls[-1]:.1f} ms, budget 1500 ms")


if __name__ == "__main__":
    main()
