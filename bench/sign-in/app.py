"""A loopback app behind a real cookie login, for bench/sign-in-once.sh.

POST /login (form field `user`) sets an HttpOnly session cookie and counts the login; every other
GET answers a small page saying `signed in as <user>` or `anonymous`, with the sign-in form.
GET /logins answers the login count. Usage: python3 app.py PORT
"""
import http.server
import sys
import threading

logins = 0
lock = threading.Lock()


class App(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        data = body.encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        global logins
        length = int(self.headers.get("content-length", 0))
        form = self.rfile.read(length).decode()
        user = form.split("user=", 1)[1].split("&")[0] if "user=" in form else "someone"
        with lock:
            logins += 1
        self.answer(303, "", [("Set-Cookie", f"session=s-{user}; Path=/; HttpOnly; SameSite=Lax"),
                              ("Location", "/")])

    def do_GET(self):
        if self.path == "/logins":
            self.answer(200, str(logins))
            return
        who = "anonymous"
        for part in (self.headers.get("cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == "session" and value.startswith("s-"):
                who = "signed in as " + value[2:]
        self.answer(200, f"""<!doctype html><title>Shop</title><p>{who}</p>
<form method="post" action="/login"><label>User <input name="user"></label>
<button>Sign in</button></form>""")


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), App).serve_forever()
