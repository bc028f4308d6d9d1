// What a routed request costs the page under Playwright, the peer of web/benches/routes.rs: the
// same page script times sequential `fetch('/api/users', { cache: 'no-store' })` calls (body
// read included) — unrouted (a loopback node server answers), fulfilled by `page.route`, then
// continued by `route.continue()`. Prints p50/p90 per fetch.
const { test } = require('@playwright/test');
const http = require('http');

const FETCHES = Number(process.env.ROUTE_BENCH_FETCHES || 200);
const WARM_UP = 20;

const PAGE = '<!doctype html><title>routes</title><p id="out">none</p>';

function timing(n) {
  return `(async () => {
    const t = [];
    for (let i = 0; i < ${n}; i++) {
      const s = performance.now();
      const r = await fetch('/api/users', { cache: 'no-store' });
      await r.text();
      t.push(performance.now() - s);
    }
    t.sort((a, b) => a - b);
    return [t[Math.floor(t.length / 2)], t[Math.floor(t.length * 0.9)]];
  })()`;
}

test('route cost', async ({ page }) => {
  const server = http.createServer((req, res) => {
    if (req.url.startsWith('/api/users')) {
      res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'close' });
      res.end('["real-server"]');
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
      res.end(PAGE);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    await page.goto(`${base}/routes.html`);
    const measure = async (label) => {
      await page.evaluate(timing(WARM_UP));
      const [p50, p90] = await page.evaluate(timing(FETCHES));
      console.log(`${label.padEnd(28)} p50 ${p50.toFixed(3)} ms   p90 ${p90.toFixed(3)} ms   (${FETCHES} fetches)`);
    };
    await measure('unrouted');
    await page.route('**/api/users', (route) =>
      route.fulfill({ body: '["routed"]', contentType: 'application/json' }));
    await measure('fulfilled (page.route)');
    await page.unroute('**/api/users');
    await page.route('**/api/users', (route) => route.continue());
    await measure('continued (route.continue)');
  } finally {
    server.close();
  }
});
