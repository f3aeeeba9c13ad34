import { mockParts } from '../../src/mock/create-mock';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { BvsMockConfig } from '../../src/schemas';
import { startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS, PARTNER_DEFINITIVE_ERROR } from '../support/built-in-tins';
import { SCREENSHOTS, chromiumUnavailable, launchChromium } from '../support/chromium';

// The dashboard as a user meets it, in a real browser (Debian's Chromium driven by playwright-core): served
// by bvs-mock at /_mock/, acting through the control API while a scenario plays through the API itself,
// and updated live by GET /_mock/stream. Screenshots of each step land in test-output/dashboard/.

const unavailable = chromiumUnavailable();
const describeInBrowser = unavailable === null ? describe : describe.skip;
if (unavailable !== null) process.stderr.write(`dashboard browser tests skipped: ${unavailable}\n`);

const CONTROL_TOKEN = 'dashboard_test_token';

describeInBrowser('the dashboard in Chromium', () => {
  let browser: Browser;
  let receiver: WebhookReceiver;
  let failing: WebhookReceiver;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    receiver = await startWebhookReceiver();
    failing = await startWebhookReceiver({ respond: () => ({ status: 503, body: '{"error":"receiver down for maintenance"}' }) });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await failing?.close();
  });

  /** A page on a fresh bvs-mock (its self-signed certificate accepted, as a user does once). */
  async function open(t: TestServer, hash: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // Refusals the test provokes (401 before the token, 409 for OAuth) are logged by the browser as failed loads.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    await page.goto(`${t.server.url}/_mock/${hash}`);
    (page as Page & { problems?: string[] }).problems = problems;
    return { context, page };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

  test('creates an endpoint in the page, then shows a scenario played through the API live: tree, timeline, deliveries, redelivery, the clock, retries and the report', async () => {
    const t = await startTestServer();
    const { context, page } = await open(t, '#/endpoints');
    try {
      await page.getByText('live', { exact: true }).waitFor();
      // Marks this document: were the page reloaded, the mark would be gone.
      await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));

      await page.fill('input[name=name]', 'orders-receiver');
      await page.fill('input[name=url]', receiver.url);
      await page.selectOption('select[name=auth_type]', 'secret');
      await page.click('button:has-text("Create endpoint")');
      const secret = await page.locator('[data-testid=secret] code').textContent();
      expect(secret).toMatch(/^whsec_/);
      await page.locator('[data-endpoint=orders-receiver]').waitFor();
      await shot(page, '01-endpoint-created');
      const listed = (await t.call('/_mock/webhook_endpoints')).json() as { webhook_endpoints: Array<{ id: string; name: string; auth_type: string }> };
      expect(listed.webhook_endpoints).toEqual([expect.objectContaining({ name: 'orders-receiver', auth_type: 'secret' })]);

      // An OAuth endpoint cannot be enabled before the organization has OAuth (spec §3): the page says why.
      await page.fill('input[name=name]', 'oauth-receiver');
      await page.fill('input[name=url]', receiver.url);
      await page.selectOption('select[name=auth_type]', 'oauth');
      await page.click('button:has-text("Create endpoint")');
      await page.locator('[role=alert]', { hasText: 'OAuth is configured' }).waitFor();
      // What was typed stays, to be corrected (here: created disabled, which the rule allows).
      expect(await page.inputValue('input[name=name]')).toBe('oauth-receiver');
      await page.uncheck('input[name=enabled]');
      await page.click('button:has-text("Create endpoint")');
      await page.locator('[data-endpoint=oauth-receiver]', { hasText: 'disabled' }).waitFor();
      await shot(page, '02-oauth-refused');

      await page.click('nav >> text=Validations');
      const validation = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
      await page.locator(`[data-validation="${validation.id}"]`).click();
      await page.locator('[data-testid=tree]').waitFor();
      await t.advance(120);
      await page.locator('[data-testid=timeline] tbody tr', { hasText: 'data_source_run_batch.ready' }).first().waitFor();
      await page.locator('[data-batch] .badge', { hasText: 'true' }).first().waitFor();
      await shot(page, '03-tree-and-timeline');

      await page.click('nav >> text=Events');
      await page.locator('[data-testid=events] tbody tr').first().waitFor();
      const rows = await page.locator('[data-testid=events] tbody tr').count();
      expect(rows).toBeGreaterThan(5);
      await page.locator('[data-testid=events] tbody tr', { hasText: 'data_source_run_batch.ready' }).filter({ hasText: 'orders-receiver' }).first().click();
      await page.locator('[data-testid=attempts] .badge', { hasText: '200' }).first().waitFor();
      await page.click('button:has-text("Redeliver")');
      await page.locator('[data-testid=attempts] td', { hasText: 'redelivery' }).waitFor();
      await page.locator('[data-testid=event-detail] .json', { hasText: '"type": "data_source_run_batch.ready"' }).waitFor();
      await shot(page, '04-attempts-and-redelivery');
      expect(receiver.received.filter((hook) => (hook.body as { type?: string }).type === 'data_source_run_batch.ready').length).toBeGreaterThanOrEqual(2);

      // A receiver that answers 503: its retries appear as the clock moves, moved from the page.
      const down = (
        await t.json('POST', '/_mock/webhook_endpoints', { name: 'down-receiver', url: failing.url, subscribed_events: ['data_source_run_batch.ready'] })
      ).json() as { webhook_endpoint: { id: string } };
      await t.create({ tin: PARTNER_DEFINITIVE_ERROR, country: 'CL' });
      await page.click('nav >> text=Clock');
      await page.fill('input[name=amount]', '30');
      await page.selectOption('select[name=unit]', 'minutes');
      await page.click('button:has-text("Advance")');
      await page.locator('[data-testid=clock-result]', { hasText: 'Advanced 30 minutes' }).waitFor();
      await shot(page, '05-clock-advanced');

      await page.goto(`${t.server.url}/_mock/#/events?endpoint=${down.webhook_endpoint.id}`);
      await page.locator('[data-testid=events] tbody tr').first().click();
      await page.locator('[data-testid=attempts] td', { hasText: 'retry' }).first().waitFor();
      const answers = await page.locator('[data-testid=attempts] .badge', { hasText: '503' }).count();
      expect(answers).toBeGreaterThan(2);
      await page.locator('[data-testid=attempts] pre', { hasText: 'receiver down for maintenance' }).first().waitFor();
      await shot(page, '06-failing-receiver-retries');

      await page.click('nav >> text=Contract report');
      await page.locator('[data-testid=receivers] tr', { hasText: failing.url }).waitFor();
      await shot(page, '07-report');
      expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(true);
      expect((page as Page & { problems?: string[] }).problems).toEqual([]);
    } finally {
      await context.close();
      await t.close();
    }
  }, 120_000);

  test('follows a reset made elsewhere, then says so when the server stops, without a page error', async () => {
    const t = await startTestServer();
    const validation = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
    const { context, page } = await open(t, `#/validations?id=${validation.id}`);
    try {
      await page.locator('[data-testid=tree]').waitFor();
      await page.getByText('live', { exact: true }).waitFor();
      expect((await t.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
      await page.locator('text=None yet').waitFor();
      await page.locator('[role=alert]', { hasText: validation.id }).waitFor();
      expect(await page.locator('[data-testid=tree]').count()).toBe(0);
      await shot(page, '11-after-reset');
      await t.close();
      await page.getByText('reconnecting…').waitFor();
      await shot(page, '12-server-stopped');
      expect((page as Page & { problems?: string[] }).problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  test("a hidden tab lets its stream go and picks it up when shown again, so many tabs do not hold the browser's connections", async () => {
    const t = await startTestServer();
    const { context, page } = await open(t, '#/validations');
    try {
      await page.getByText('live', { exact: true }).waitFor();
      expect(mockParts(t.server).world.changes.size).toBe(1);
      // Run in the page, where document exists: as a browser does when the tab is hidden or shown.
      const setHidden = (hidden: boolean) =>
        page.evaluate(
          `Object.defineProperty(document, 'hidden', { configurable: true, get: () => ${hidden} }); document.dispatchEvent(new Event('visibilitychange'))`,
        );
      await setHidden(true);
      for (let waited = 0; mockParts(t.server).world.changes.size > 0 && waited < 3_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(mockParts(t.server).world.changes.size).toBe(0);
      // What happened meanwhile is there once the tab is shown: it refetches on reconnecting.
      const validation = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
      await setHidden(false);
      await page.locator(`[data-validation="${validation.id}"]`).waitFor();
      expect(mockParts(t.server).world.changes.size).toBe(1);
    } finally {
      await context.close();
      await t.close();
    }
  }, 60_000);

  test('serves the page open under --control-token, asks for the token, then sends it as Bearer to the control API', async () => {
    const t = await startTestServer({ controlToken: CONTROL_TOKEN });
    const { context, page } = await open(t, '#/validations');
    try {
      await page.getByRole('heading', { name: 'This bvs-mock is locked' }).waitFor();
      await shot(page, '08-locked');
      await page.fill('input[name=token]', CONTROL_TOKEN);
      await page.click('button:has-text("Unlock")');
      await page.getByText('live', { exact: true }).waitFor();
      const validation = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
      await page.locator(`[data-validation="${validation.id}"]`).waitFor();
      expect((await t.call('/_mock/clock')).status).toBe(401);
    } finally {
      await context.close();
      await t.close();
    }
  }, 60_000);

  test('switches organizations when several are configured, and keeps the choice in the link', async () => {
    const config = BvsMockConfig.parse({
      organizations: [
        { id: 'acme', api_keys: ['key_acme'] },
        { id: 'globex', api_keys: ['key_globex'], webhook_endpoints: [{ name: 'globex-hooks', url: 'https://globex.example.test/hooks' }] },
      ],
    });
    const t = await startTestServer({ config });
    const { context, page } = await open(t, '#/endpoints');
    try {
      await page.locator('text=No endpoint yet').waitFor();
      await page.selectOption('[data-testid=organization]', 'globex');
      await page.locator('[data-endpoint=globex-hooks]').waitFor();
      expect(page.url()).toContain('org=globex');
      await page.click('nav >> text=Validations');
      expect(page.url()).toContain('org=globex');
      await shot(page, '09-organizations');
    } finally {
      await context.close();
      await t.close();
    }
  }, 60_000);

  test('keeps a realtime clock moving in the header between change notices, at its speed', async () => {
    const t = await startTestServer({ clock: 'realtime', speed: 60 });
    const { context, page } = await open(t, '#/validations');
    try {
      const badge = page.locator('[data-testid=header-clock] time');
      await badge.waitFor();
      const first = Date.parse((await badge.getAttribute('datetime'))!);
      // Nothing happens meanwhile, so no notice arrives: the badge moves by itself, a minute per real second.
      await page.waitForTimeout(2_500);
      const later = Date.parse((await badge.getAttribute('datetime'))!);
      expect(later - first).toBeGreaterThanOrEqual(60_000);
    } finally {
      await context.close();
      await t.close();
    }
  }, 60_000);
});
