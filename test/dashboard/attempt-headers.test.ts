import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { WebhookEndpoint } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { startTestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { SCREENSHOTS, chromiumUnavailable, launchChromium } from '../support/chromium';

// Why a delivery failed when the cause is a header: each attempt shows the request headers sent, the secret masked
// to its last 4 characters, beside the answer (docs/fidelity.md row 30). With the endpoint's secret wrong, the
// receiver answered 401 on every attempt and the page showed the answers only. And the event list and the attempts
// fit a 1440 px wide window with a record open (the Attempts and Duration columns were cut off).

const unavailable = chromiumUnavailable();
const describeInBrowser = unavailable === null ? describe : describe.skip;
if (unavailable !== null) process.stderr.write(`dashboard browser tests skipped: ${unavailable}\n`);

describeInBrowser('the request headers of delivery attempts, in Chromium', () => {
  let browser: Browser;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    receiver = await startWebhookReceiver({ respond: () => ({ status: 401, body: '{"error":"bad secret"}' }) });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  /** How far each element of `selector` reaches past the right edge of the window, in CSS pixels (0 when it fits). */
  const overflow = (page: Page, selector: string) =>
    page
      .locator(selector)
      .evaluateAll((elements) =>
        Math.max(0, ...elements.map((element) => element.getBoundingClientRect().right - element.ownerDocument.documentElement.clientWidth)),
      );

  test('an attempt shows the Authorization it sent, masked, next to its 401; the list and the attempts fit 1440 px', async () => {
    const t = await startTestServer();
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      const created = (
        await t.json('POST', '/_mock/webhook_endpoints', {
          name: 'hooks',
          url: receiver.url,
          auth_type: 'secret',
          subscribed_events: ['data_source_run_batch.ready'],
        })
      ).json<{ webhook_endpoint: WebhookEndpoint; secret: string }>();
      await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
      await t.advance(300);
      await page.goto(`${t.server.url}/_mock/#/events`);
      await page.locator('[data-event]').first().click();
      const headers = page.locator('[data-testid=request-headers]').first();
      await headers.waitFor();
      const masked = `Bearer ****${created.secret.slice(-4)}`;
      expect(await headers.locator('summary').textContent()).toContain(`authorization ${masked}`);
      await headers.locator('summary').click();
      expect(await headers.locator('pre').textContent()).toContain(`authorization: ${masked}`);
      expect(await headers.locator('pre').textContent()).toContain('content-type: application/json');
      expect(await page.content()).not.toContain(created.secret);
      await page.locator('[data-testid=attempts] .badge', { hasText: '401' }).first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, '14-attempt-headers.png') });
      // With a record open, every column of the list and of the attempts is inside the window.
      expect(await overflow(page, '[data-testid=events] th, [data-testid=events] td')).toBe(0);
      expect(await overflow(page, '[data-testid=attempts] th, [data-testid=attempts] td')).toBe(0);
    } finally {
      await context.close();
      await t.close();
    }
  }, 60_000);
});
