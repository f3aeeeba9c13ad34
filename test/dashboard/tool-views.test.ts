import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type StartedServer } from '../../src/http';
import { startProxy, type StartedProxy } from '../../src/http/start-proxy';
import { probePayloads } from '../../src/probes/probe-payloads';
import { SCREENSHOTS, chromiumUnavailable, launchChromium } from '../support/chromium';
import { httpClient } from '../support/https-client';
import { startPlainRelay } from '../support/relay-kit';

// The dashboard of `bvs-mock proxy` and of `bvs-mock listen`, in a real browser: what each tool finds appears on the page
// as it happens (the page reads the report again every 2 s), and none of serve's views is there.

const unavailable = chromiumUnavailable();
const describeInBrowser = unavailable === null ? describe : describe.skip;
if (unavailable !== null) process.stderr.write(`dashboard browser tests skipped: ${unavailable}\n`);

const CONTROL_TOKEN = 'proxy_dashboard_token_0123';

/** The page's own errors, refusals it provokes (the 401 before the token) aside. */
function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  return problems;
}

describeInBrowser('the dashboard of proxy and listen', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
  });

  test("proxy: asks for its control token, then lists the drift a client's call through it shows, with its JSON path and fidelity row, live", async () => {
    let upstream: StartedServer | undefined;
    let proxy: StartedProxy | undefined;
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });
    try {
      // A tolerant upstream adds fields the contract does not list to its answers (docs/fidelity.md row 89).
      upstream = await startServer({ port: 0, clock: 'instant', seed: 7, tolerance: true });
      proxy = await startProxy({ upstream: new URL(upstream.url), upstreamCa: upstream.certificate!, port: 0, controlToken: CONTROL_TOKEN });
      const page = await context.newPage();
      const problems = problemsOf(page);
      await page.goto(`${proxy.url}/_mock/`);
      await page.fill('input[name=token]', CONTROL_TOKEN);
      await page.click('button:has-text("Unlock")');
      await page.getByText('No API exchange has gone through the proxy yet', { exact: false }).waitFor();
      expect(await page.locator('.brand').textContent()).toBe('bvs-mock proxy');
      expect(await page.locator('nav a').allTextContents()).toEqual(['Drift']);

      const client = httpClient({ baseUrl: proxy.url, ca: proxy.certificate });
      try {
        const token = await client.request('/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials&client_id=default_client&client_secret=default_secret',
        });
        const { access_token: accessToken } = JSON.parse(token.body.toString('utf8')) as { access_token: string };
        expect((await client.request('/api/v2/webhook_endpoints', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);
      } finally {
        client.close();
      }
      const planted = page.locator('[data-testid=differences] tr[data-operation=listWebhookEndpoints][data-path="$.metadata"]');
      await planted.waitFor();
      const cells = await planted.locator('td').allTextContents();
      expect(cells.slice(0, 5)).toEqual(['listWebhookEndpoints', 'upstream answer', 'unknown_field', '$.metadata', 'no such field']);
      expect(cells[5]).toContain('"origin"');
      expect(cells.slice(6, 8)).toEqual(['row 89', '1']);
      expect(cells[8]).toMatch(/^req_/);
      expect(await page.locator('.tile', { hasText: 'Exchanges checked' }).locator('.tile-value').textContent()).toBe('2');
      await page.screenshot({ path: join(SCREENSHOTS, '20-proxy-drift.png') });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await proxy?.close();
      await upstream?.close();
    }
  }, 90_000);

  test('listen: an out-of-order delivery posted to the relay appears with the rule it breaks and the deliveries involved, live', async () => {
    let listen: Awaited<ReturnType<typeof startPlainRelay>> | undefined;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      listen = await startPlainRelay();
      const { relay } = listen;
      const page = await context.newPage();
      const problems = problemsOf(page);
      await page.goto(`${relay.url}/_mock/`);
      await page.getByText('No delivery yet', { exact: false }).waitFor();
      expect(await page.locator('.brand').textContent()).toBe('bvs-mock listen');
      expect(await page.locator('nav a').allTextContents()).toEqual(['Relay']);

      // A happy-partners tree whose consolidated report comes before child_batches_ready.
      const { happyPartners } = await probePayloads();
      const cbr = happyPartners.findIndex((body) => body.type === 'data_source_run_batch.child_batches_ready');
      const report = happyPartners.findIndex((body) => body.type === 'data_source_run_batch.consolidated_report_ready');
      const crafted = [...happyPartners.filter((_body, at) => at !== cbr && at !== report), happyPartners[report]!, happyPartners[cbr]!];
      for (const body of crafted) {
        const answer = await fetch(`${relay.url}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(answer.status).toBe(200);
      }
      const finding = page.locator('[data-testid=findings] tr[data-finding=order]');
      await finding.waitFor();
      expect(await finding.count()).toBe(1);
      const cells = await finding.locator('td').allTextContents();
      expect(cells[0]).toBe('order');
      expect(cells[1]).toMatch(/^§6 Event order, rule 3, and Payload rules, rule 5: /);
      expect(cells[2]).toBe('consolidated_report_ready came before child_batches_ready');
      const involved = finding.locator('li[data-delivery]');
      expect(await involved.evaluateAll((items) => items.map((item) => item.getAttribute('data-delivery')))).toEqual([
        `rly_${crafted.length - 1}`,
        `rly_${crafted.length}`,
      ]);
      expect(await involved.allTextContents()).toEqual([
        expect.stringContaining('data_source_run_batch.consolidated_report_ready'),
        expect.stringContaining('data_source_run_batch.child_batches_ready'),
      ]);
      await page.locator(`[data-testid=deliveries] tr[data-delivery=rly_${crafted.length}]`).waitFor();
      expect(await page.locator('[data-testid=deliveries] tbody tr').count()).toBe(crafted.length);
      await page.screenshot({ path: join(SCREENSHOTS, '21-listen-findings.png') });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await listen?.close();
    }
  }, 90_000);
});
