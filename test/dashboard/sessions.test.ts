import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createControlClient } from '../../src/client';
import { startTestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';
import { SCREENSHOTS, chromiumUnavailable, launchChromium } from '../support/chromium';

// The dashboard of a server holding several sessions, in a real browser: the header's switcher moves every view
// to the session chosen (kept in the link), and a session that ends takes its data off the page.

const unavailable = chromiumUnavailable();
const describeInBrowser = unavailable === null ? describe : describe.skip;
if (unavailable !== null) process.stderr.write(`dashboard browser tests skipped: ${unavailable}\n`);

describeInBrowser('the dashboard with sessions', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** The validation ids the list shows. */
  const listed = async (page: Page) =>
    (await page.locator('[data-validation]').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-validation')))).sort();

  test("switches between sessions, each view showing that session's world only, keeps the choice in the link, and goes back to the default session with a message when the one shown ends", async () => {
    const t = await startTestServer();
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // The ended session's 404s are logged by the browser as failed loads.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    try {
      const inDefault = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
      const a = await t.control.call('control.sessions.create', { body: { label: 'suite-a', clock: { mode: 'manual' } } });
      const b = await t.control.call('control.sessions.create', { body: { clock: { mode: 'manual', start_time: '2031-05-01T09:00:00Z' } } });
      const inA = [
        await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: a.organizations[0]!.api_keys[0]! }),
        await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: a.organizations[0]!.api_keys[0]! }),
      ];
      const inB = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: b.organizations[0]!.api_keys[0]! });
      // An endpoint made through session A's control base only.
      const controlOfA = createControlClient({ ...t.control.connection, session: a.id });
      await controlOfA.call('control.webhook_endpoints.create', { body: { name: 'suite-a-hooks', url: 'https://a.example.test/hooks' } });

      await page.goto(`${t.server.url}/_mock/#/validations`);
      await page.locator(`[data-validation="${inDefault.id}"]`).waitFor();
      const switcher = page.locator('[data-testid=session]');
      // Every session by label (its id when it has none), with its counts.
      expect(await switcher.locator('option').allTextContents()).toEqual([
        'default session (1 validation, 0 deliveries)',
        'suite-a (2 validations, 0 deliveries)',
        `${b.id} (1 validation, 0 deliveries)`,
      ]);

      await switcher.selectOption(a.id);
      await page.locator(`[data-validation="${inA[0]!.id}"]`).waitFor();
      expect(await listed(page)).toEqual(inA.map((validation) => validation.id).sort());
      expect(page.url()).toContain(`session=${a.id}`);
      await page.getByText('live', { exact: true }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, '13-session-chosen.png') });
      await page.click('nav >> text=Webhook endpoints');
      await page.locator('[data-endpoint=suite-a-hooks]').waitFor();
      await page.click('nav >> text=Validations');

      await switcher.selectOption(b.id);
      await page.locator(`[data-validation="${inB.id}"]`).waitFor();
      expect(await listed(page)).toEqual([inB.id]);
      // Its own clock in the header, and its own tree behind the link.
      expect(await page.locator('[data-testid=header-clock] time').getAttribute('datetime')).toMatch(/^2031-05-01T09:00:00/);
      await page.locator(`[data-validation="${inB.id}"]`).click();
      await page.locator('[data-testid=tree]').waitFor();

      // A reload (or the link shared) stays in the session, and so do the views' links.
      await page.reload();
      await page.locator('[data-testid=tree]').waitFor();
      expect(await switcher.inputValue()).toBe(b.id);
      await page.click('nav >> text=Webhook endpoints');
      expect(page.url()).toContain(`session=${b.id}`);
      await page.locator('text=No endpoint yet').waitFor();
      await page.click('nav >> text=Validations');
      await page.locator(`[data-validation="${inB.id}"]`).waitFor();

      expect((await t.control.call('control.sessions.end', { params: { id: b.id } })).status).toBe('ended');
      await page.locator('[data-testid=session-ended]', { hasText: b.id }).waitFor();
      await page.locator(`[data-validation="${inDefault.id}"]`).waitFor();
      expect(await listed(page)).toEqual([inDefault.id]);
      expect(await page.locator('[data-testid=tree]').count()).toBe(0);
      expect(page.url()).not.toContain('session=');
      expect(await switcher.inputValue()).toBe('default');
      expect(await switcher.locator('option').allTextContents()).toEqual([
        'default session (1 validation, 0 deliveries)',
        'suite-a (2 validations, 0 deliveries)',
      ]);
      await page.screenshot({ path: join(SCREENSHOTS, '14-session-ended.png') });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await t.close();
    }
  }, 90_000);

  test('a session that expires while shown (idle longer than --session-ttl) leaves the page too', async () => {
    const t = await startTestServer({ sessionTtlMs: 3_000 });
    const page = await browser.newPage({ ignoreHTTPSErrors: true });
    try {
      const idle = await t.control.call('control.sessions.create', { body: { label: 'suite-idle' } });
      const shown = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: idle.organizations[0]!.api_keys[0]! });
      await page.goto(`${t.server.url}/_mock/#/validations?session=${idle.id}&id=${shown.id}`);
      await page.locator('[data-testid=tree]').waitFor();
      // Showing a session is no use of it: nothing is asked of it while nothing changes, so it expires.
      await page.locator('[data-testid=session-ended]', { hasText: 'suite-idle' }).waitFor();
      expect(await page.locator(`[data-validation="${shown.id}"]`).count()).toBe(0);
      expect(await page.locator('[data-testid=tree]').count()).toBe(0);
      expect(page.url()).toMatch(/#\/validations$/);
    } finally {
      await page.close();
      await t.close();
    }
  }, 60_000);

  test('a link to a session that has ended opens the default session and says so', async () => {
    const t = await startTestServer();
    const page = await browser.newPage({ ignoreHTTPSErrors: true });
    try {
      const gone = await t.control.call('control.sessions.create', { body: { label: 'suite-gone' } });
      await t.control.call('control.sessions.end', { params: { id: gone.id } });
      await page.goto(`${t.server.url}/_mock/#/events?session=${gone.id}`);
      await page.locator('[data-testid=session-ended]', { hasText: gone.id }).waitFor();
      expect(page.url()).toMatch(/#\/events$/);
      await page.getByText('live', { exact: true }).waitFor();
    } finally {
      await page.close();
      await t.close();
    }
  }, 60_000);

  test('the events view filters by label: only the deliveries of the validations one test created', async () => {
    const t = await startTestServer();
    const page = await browser.newPage({ ignoreHTTPSErrors: true });
    try {
      await t.control.call('control.webhook_endpoints.create', { body: { name: 'closed', url: 'https://127.0.0.1:9/hooks' } });
      for (const label of ['suite-a - first', 'suite-b - second'])
        await t.json(
          'POST',
          '/api/v2/entity_validations',
          { tin: HAPPY_NO_PARTNERS, country: 'CL' },
          { authorization: 'Bearer test_key_default', 'x-bvs-mock-label': label },
        );
      await t.advance(30);
      const ofA = (await t.control.call('control.events.list', { query: { label: 'suite-a - first' } })).events.map((event) => event.id);
      const ofB = (await t.control.call('control.events.list', { query: { label: 'suite-b - second' } })).events.map((event) => event.id);
      expect(ofA.length).toBeGreaterThan(0);
      expect(ofB.length).toBeGreaterThan(0);
      await page.goto(`${t.server.url}/_mock/#/events`);
      await page.locator('[data-event]').first().waitFor();
      await page.getByLabel('Label').fill('suite-a - first');
      await page.getByLabel('Label').press('Enter');
      await page.waitForURL(/label=suite-a/);
      // The other test's deliveries leave the page (a string predicate would be refused by the page's CSP).
      for (const id of ofB) await page.locator(`[data-event="${id}"]`).waitFor({ state: 'detached' });
      const shown = await page.locator('[data-event]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-event')));
      expect(shown.sort()).toEqual([...ofA].sort());
    } finally {
      await page.close();
      await t.close();
    }
  }, 60_000);

  test('a label typed while the view is drawn again keeps what was typed and applies on Enter (a live update emptied the field under the typist)', async () => {
    const t = await startTestServer();
    const page = await browser.newPage({ ignoreHTTPSErrors: true });
    try {
      await t.control.call('control.webhook_endpoints.create', { body: { name: 'closed', url: 'https://127.0.0.1:9/hooks' } });
      await t.json(
        'POST',
        '/api/v2/entity_validations',
        { tin: HAPPY_NO_PARTNERS, country: 'CL' },
        { authorization: 'Bearer test_key_default', 'x-bvs-mock-label': 'suite-a' },
      );
      await t.advance(30);
      await page.goto(`${t.server.url}/_mock/#/events`);
      await page.locator('[data-event]').first().waitFor();
      const clock = page.locator('[data-testid=header-clock] time');
      const before = await clock.getAttribute('datetime');
      await page.getByLabel('Label').fill('suite-a');
      // The clock moves while the field holds what was typed: the header, the events and their attempts are drawn again.
      await t.advance(3600);
      await page.locator(`[data-testid=header-clock] time:not([datetime="${before}"])`).waitFor();
      expect(await page.getByLabel('Label').inputValue()).toBe('suite-a');
      await page.getByLabel('Label').press('Enter');
      await page.waitForURL(/label=suite-a$/);
    } finally {
      await page.close();
      await t.close();
    }
  }, 60_000);

  test('a switch right after following a link stays on the view the link led to (it went back to the view left, before it was drawn)', async () => {
    const t = await startTestServer();
    const page = await browser.newPage({ ignoreHTTPSErrors: true });
    try {
      const a = await t.control.call('control.sessions.create', { body: { label: 'suite-a' } });
      const b = await t.control.call('control.sessions.create', { body: { label: 'suite-b' } });
      await page.goto(`${t.server.url}/_mock/#/validations?session=${a.id}`);
      await page.locator('[data-testid=session] option', { hasText: 'suite-b' }).waitFor({ state: 'attached' });
      // A link followed and the switcher changed in one turn, before the page has drawn the link's view: what a
      // quick hand (or a test) does. The switch keeps the view of the address, not the one last drawn.
      await page.evaluate(`
        location.hash = '#/events?session=${a.id}';
        const select = document.querySelector('[data-testid=session]');
        select.value = '${b.id}';
        select.dispatchEvent(new Event('change', { bubbles: true }));
      `);
      await page.waitForURL(new RegExp(`#/events\\?session=${b.id}$`));
    } finally {
      await page.close();
      await t.close();
    }
  }, 60_000);
});
