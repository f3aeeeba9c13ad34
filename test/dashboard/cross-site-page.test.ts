import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { startTestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';
import { chromiumUnavailable, launchChromium } from '../support/chromium';

// Without --control-token, a page the tester opened on another localhost port reset bvs-mock with
// `fetch(T + '/_mock/reset', { method: 'POST', mode: 'no-cors' })` and added a scenario with a no-cors
// text/plain POST: no preflight, so nothing but bvs-mock itself can refuse them (docs/fidelity.md row 103).

const unavailable = chromiumUnavailable();
const testInBrowser = unavailable === null ? test : test.skip;
if (unavailable !== null) process.stderr.write(`cross-site page browser test skipped: ${unavailable}\n`);

const SCENARIO = `name: planted-by-a-page
description: Added by another site.
tins: ["76999994-9"]
entity: { tin: 76999994-9, country: CL, category: business, name: Planted SpA, runs: [{ type: cl/sii, outcomes: [{ succeeded: 5s }] }] }
`;

/** The hostile page: both no-cors requests, then its title says it is done. */
function attackPage(target: string): string {
  return `<!doctype html><title>loading</title><script>
(async () => {
  const T = ${JSON.stringify(target)};
  await fetch(T + '/_mock/reset', { method: 'POST', mode: 'no-cors' }).catch(() => undefined);
  await fetch(T + '/_mock/scenarios', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(SCENARIO)} }).catch(() => undefined);
  document.title = 'done';
})();
</script>`;
}

testInBrowser(
  'a page on another localhost port cannot reset bvs-mock or add a scenario with no-cors requests: both are refused and nothing changes',
  async () => {
    const answered: Array<[string, number]> = [];
    const t = await startTestServer({ http: true, onRequest: (entry, control) => control && answered.push([entry.path, entry.status]) });
    let site: Server | undefined;
    let browser: Browser | undefined;
    try {
      for (let i = 0; i < 5; i += 1) await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
      site = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(attackPage(t.server.url));
      });
      await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
      browser = await launchChromium();
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      await page.waitForFunction('document.title === "done"', undefined, { timeout: 15_000 });

      // Both requests reached bvs-mock, and both were refused.
      expect(answered).toEqual([
        ['/_mock/reset', 403],
        ['/_mock/scenarios', 403],
      ]);
      const validations = (await t.call('/_mock/entity_validations')).json<{ validations: unknown[] }>().validations;
      expect(validations).toHaveLength(5);
      const scenarios = (await t.call('/_mock/scenarios')).json<{ scenarios: Array<{ name: string }> }>().scenarios;
      expect(scenarios.map((scenario) => scenario.name)).not.toContain('planted-by-a-page');
    } finally {
      await browser?.close();
      if (site !== undefined) await new Promise<void>((resolve) => site!.close(() => resolve()));
      await t.close();
    }
  },
  60_000,
);
