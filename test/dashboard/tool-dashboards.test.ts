import { startServer, type StartedServer } from '../../src/http';
import { startProxy, type StartedProxy } from '../../src/http/start-proxy';
import { startPlainRelay } from '../support/relay-kit';

// The dashboard as `bvs-mock proxy` and `bvs-mock listen` serve it, at serve's paths (/_mock/ and its assets), the page
// naming the tool that serves it (the proxy answers it itself: the upstream's page would say serve), so the app shows
// that tool's view only. The views in a browser: tool-views.test.ts.

let upstream: StartedServer;
let proxy: StartedProxy;
let listen: Awaited<ReturnType<typeof startPlainRelay>>;

beforeAll(async () => {
  upstream = await startServer({ http: true, port: 0, clock: 'manual' });
  proxy = await startProxy({ upstream: new URL(upstream.url), http: true, port: 0, controlToken: 'proxy-token-0123456789' });
  listen = await startPlainRelay({ controlToken: 'relay-token-0123456789' });
});

afterAll(async () => {
  await listen?.close();
  await proxy?.close();
  await upstream?.close();
});

const tools = () =>
  [
    ['serve', upstream.url],
    ['proxy', proxy.url],
    ['listen', listen.relay.url],
  ] as const;

test.each(['serve', 'proxy', 'listen'])(
  'GET /_mock/ on %s answers the dashboard page, naming the tool, under the CSP, with its script and style',
  async (tool) => {
    const url = tools().find(([name]) => name === tool)![1];
    const page = await fetch(`${url}/_mock/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain(`<div id="app" data-tool="${tool}"></div>`);
    // No inline script: the CSP would refuse it.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const assets = [...html.matchAll(/(?:src|href)="(\/_mock\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.map((asset) => asset.replace(/-[A-Z0-9]+\./, '.'))).toEqual(['/_mock/assets/main.css', '/_mock/assets/main.js']);
    for (const asset of assets) {
      const answer = await fetch(`${url}${asset}`);
      expect([asset, answer.status]).toEqual([asset, 200]);
      expect(answer.headers.get('cache-control')).toContain('immutable');
    }
    const bare = await fetch(`${url}/_mock`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/_mock/']);
    expect((await fetch(`${url}/_mock/assets/..%2Fpackage.json`)).status).toBe(404);
  },
);

test("proxy and listen keep their reports behind their control token, the page being public as serve's is", async () => {
  expect((await fetch(`${proxy.url}/_mock/drift`)).status).toBe(401);
  expect((await fetch(`${proxy.url}/_mock/drift`, { headers: { authorization: 'Bearer proxy-token-0123456789' } })).status).toBe(200);
  expect((await fetch(`${listen.relay.url}/_mock/relay`)).status).toBe(401);
  expect((await fetch(`${listen.relay.url}/_mock/relay`, { headers: { authorization: 'Bearer relay-token-0123456789' } })).status).toBe(200);
  const drift = (await (await fetch(`${proxy.url}/_mock/drift`, { headers: { authorization: 'Bearer proxy-token-0123456789' } })).json()) as {
    exchanges: number;
  };
  expect(drift.exchanges).toBe(0);
});
