import type { Browser } from 'playwright-core';
import { InformationRequest } from '../../src/schemas';
import { bearer, startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';
import { chromiumUnavailable, launchChromium } from '../support/chromium';

// The page an information request's recipient_url opens: it was served without a Content-Security-Policy
// or frame-ancestors, and under --control-token its Submit button called a control route it had no token
// for, so the recipient could not submit (docs/fidelity.md row 105).

const unavailable = chromiumUnavailable();
const testInBrowser = unavailable === null ? test : test.skip;
if (unavailable !== null) process.stderr.write(`recipient page browser test skipped: ${unavailable}\n`);

const CONTROL_TOKEN = 'recipient_page_token';

/** A validation with one information request; answers the request's id and its recipient_url. */
async function informationRequest(t: TestServer): Promise<{ id: string; url: string }> {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL', information_request: { template_id: 'irt_recipient' } });
  const request = created.information_requests[0]!;
  return { id: request.id, url: request.recipient_url };
}

/** The request as the API gives it (the items' statuses), read with the default API key. */
async function itemStatuses(t: TestServer, id: string): Promise<string[]> {
  const answer = await t.get(`/api/v2/information_requests/${id}`);
  return InformationRequest.parse(answer.json()).requestable_items.map((item) => item.status);
}

test('the recipient page carries a strict Content-Security-Policy, frame-ancestors none and nosniff', async () => {
  const t = await startTestServer({ controlToken: CONTROL_TOKEN });
  try {
    const { url } = await informationRequest(t);
    const page = await t.call(url);
    expect(page.status).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy.split(/;\s*/)).toEqual(expect.arrayContaining(["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"]));
    expect(policy).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    // The dashboard's page has its own policy, framed by nobody either.
    const dashboard = await t.call('/_mock/');
    expect(String(dashboard.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(dashboard.headers['x-content-type-options']).toBe('nosniff');
  } finally {
    await t.close();
  }
});

test('under --control-token, the page submits exactly as its form does, without the token: the request advances, and only that request', async () => {
  const t = await startTestServer({ controlToken: CONTROL_TOKEN });
  try {
    const first = await informationRequest(t);
    const second = await informationRequest(t);
    const page = (await t.call(first.url)).text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    expect(action).toBe(`/_mock/recipient/${first.id}/submit`);
    // A form without fields: what a browser sends, with the page's own origin.
    const submitted = await t.call(action!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.server.url, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
      body: '',
    });
    expect([submitted.status, submitted.headers.location]).toEqual([303, `/_mock/recipient/${first.id}`]);
    expect(await itemStatuses(t, first.id)).toEqual(['submitted']);
    expect(await itemStatuses(t, second.id)).toEqual(['pending']);
    // Submitting again is a conflict, in the error shape; a page of another origin cannot submit at all.
    expect((await t.call(action!, { method: 'POST' })).status).toBe(409);
    const foreign = await t.call(`/_mock/recipient/${second.id}/submit`, { method: 'POST', headers: { origin: 'http://127.0.0.1:5173' } });
    expect(foreign.status).toBe(403);
    expect(await itemStatuses(t, second.id)).toEqual(['pending']);
    // The route does nothing else: no other action, and the control API stays locked.
    expect((await t.call(`/_mock/recipient/${second.id}/analyze`, { method: 'POST' })).status).toBe(404);
    expect((await t.call(`/_mock/information_requests/${second.id}/submit`, { method: 'POST' })).status).toBe(401);
    expect((await t.call(`/_mock/information_requests/${second.id}/submit`, { method: 'POST', headers: bearer(CONTROL_TOKEN) })).status).toBe(202);
  } finally {
    await t.close();
  }
});

testInBrowser(
  "under --control-token, the recipient clicks Submit in Chromium and the request's items are submitted, with no policy violation",
  async () => {
    const t = await startTestServer({ controlToken: CONTROL_TOKEN });
    let browser: Browser | undefined;
    try {
      const { id, url } = await informationRequest(t);
      browser = await launchChromium();
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('dialog', (dialog) => {
        problems.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await page.goto(url);
      await page.getByRole('button', { name: 'Submit every pending item' }).click();
      await page.getByText('Every item is submitted.').waitFor({ timeout: 10_000 });
      expect(await itemStatuses(t, id)).toEqual(['submitted']);
      expect(page.url()).toBe(url);
      expect(problems).toEqual([]);
    } finally {
      await browser?.close();
      await t.close();
    }
  },
  60_000,
);
