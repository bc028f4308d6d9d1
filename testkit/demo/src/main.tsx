// Demo app for @a3s-lab/testkit: a form with a password, a mutating list, a pushState route, a
// scrollable region, an open shadow-DOM widget, boundaries with source hints and a redacted
// region. Real-Chromium tests drive it from testkit/browser and the Rust driver.
import { createElement, useEffect, useState, type FormEvent } from "react";
import { createRoot } from "react-dom/client";
import { A3STestBoundary, A3STestKit } from "@a3s-lab/testkit/react";
import "./ShadowWidget";
import "./app.css";

declare global {
  namespace JSX {
    interface IntrinsicElements {
      "demo-shadow-widget": { "data-testid"?: string };
    }
  }
}

type Route = "/" | "/settings";

function currentRoute(): Route {
  return window.location.pathname.endsWith("/settings") ? "/settings" : "/";
}

function LoginForm() {
  const [status, setStatus] = useState("Signed out");
  const [email, setEmail] = useState("");
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setStatus(`Signed in as ${email || "nobody"}`);
  };
  return (
    <A3STestBoundary id="login-form" name="LoginForm" source={{ file: "testkit/demo/src/main.tsx", line: 24, column: 1 }}>
      <section aria-label="Sign in">
        <h2>Sign in</h2>
        <form onSubmit={onSubmit}>
          <label htmlFor="email">Email</label>
          <input id="email" data-testid="email" type="email" placeholder="you@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
          <label htmlFor="password">Password</label>
          <input id="password" data-testid="password" type="password" autoComplete="current-password" />
          <button type="submit" data-testid="sign-in">Sign in</button>
        </form>
        <p className="status" data-testid="login-status" role="status">{status}</p>
      </section>
    </A3STestBoundary>
  );
}

function ItemList() {
  const [items, setItems] = useState(["Apples", "Bread", "Coffee"]);
  return (
    <A3STestBoundary id="item-list" name="ItemList" source={{ file: "testkit/demo/src/main.tsx", line: 48, column: 1 }} facts={{ count: items.length }}>
      <section aria-label="Shopping list">
        <h2>Shopping list</h2>
        <ul data-testid="items">
          {items.map((item, i) => (
            <li key={`${item}-${i}`}>{item}</li>
          ))}
        </ul>
        <button data-testid="add-item" onClick={() => setItems([...items, `Item ${items.length + 1}`])}>Add item</button>{" "}
        <button data-testid="remove-item" onClick={() => setItems(items.slice(1))}>Remove first</button>
      </section>
    </A3STestBoundary>
  );
}

function ScrollRegion() {
  return (
    <A3STestBoundary id="scroll-region" name="ScrollRegion" source={{ file: "testkit/demo/src/main.tsx", line: 66, column: 1 }}>
      <section aria-label="Log">
        <h2>Log</h2>
        <div className="scroller" data-testid="scroller" tabIndex={0}>
          {Array.from({ length: 40 }, (_, i) => (
            <p key={i}>Log line {i + 1}</p>
          ))}
        </div>
      </section>
    </A3STestBoundary>
  );
}

function Home() {
  return (
    <main>
      <LoginForm />
      <ItemList />
      <ScrollRegion />
      <A3STestBoundary id="shadow-widget" name="ShadowWidget" source={{ file: "testkit/demo/src/ShadowWidget.ts", line: 3, column: 1 }}>
        <section aria-label="Shadow DOM">
          <h2>Shadow DOM</h2>
          {createElement("demo-shadow-widget", { "data-testid": "shadow-host" })}
        </section>
      </A3STestBoundary>
      <section aria-label="Private notes">
        <h2>Private notes</h2>
        <div className="redacted" data-testid="private-notes">
          Account recovery code: RECOVERY-7731-ALPHA. <span>Do not share.</span>
        </div>
      </section>
    </main>
  );
}

function Settings() {
  return (
    <main>
      <section aria-label="Settings">
        <h2>Settings page</h2>
        <label>
          <input type="checkbox" data-testid="dark-mode" /> Dark mode
        </label>
      </section>
    </main>
  );
}

function App() {
  const [route, setRoute] = useState<Route>(currentRoute);
  useEffect(() => {
    const onPop = () => setRoute(currentRoute());
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  const go = (to: Route) => {
    const base = window.location.pathname.replace(/\/settings$/, "/").replace(/\/+$/, "/");
    window.history.pushState(null, "", to === "/" ? base : `${base.replace(/\/$/, "")}/settings`);
    setRoute(to);
  };
  return (
    <A3STestKit enabled page={{ id: "testkit-demo" }} redact={[".redacted"]} facts={() => ({ route, demo: true })}>
      <header>
        <h1>Test Kit demo</h1>
        <nav aria-label="Main">
          <button data-testid="nav-home" aria-current={route === "/" ? "page" : undefined} onClick={() => go("/")}>Home</button>{" "}
          <button data-testid="nav-settings" aria-current={route === "/settings" ? "page" : undefined} onClick={() => go("/settings")}>Settings</button>
        </nav>
      </header>
      {route === "/" ? <Home /> : <Settings />}
      <footer className="footer">
        <p>End of the demo page (tall on purpose, so the window can scroll).</p>
      </footer>
    </A3STestKit>
  );
}

const container = document.getElementById("root");
if (container !== null) createRoot(container).render(<App />);
