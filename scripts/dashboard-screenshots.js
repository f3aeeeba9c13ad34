// Writes one screenshot of each view of the dashboard (docs/dashboard-*.png for the README), from the
// build (`npm run build` first): bvs-mock on a free port with the manual clock and seed 1, two receivers
// (one answering 200, one failing with 500 so its retries show), a few validations played part way, and
// headless Chromium from the system (/usr/bin/chromium, or CHROMIUM_PATH).
//   node scripts/dashboard-screenshots.js [out-dir]     (default: docs/)
const { mkdirSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { launchChromium } = require('./chromium');
const { startServer } = require('../dist/http');
const { SCENARIOS, startWebhookReceiver } = require('../dist/testing');

const API_KEY = 'test_key_default';

async function call(base, method, path, body, key) {
  const headers = { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) };
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok && !(key !== undefined && response.status === 422)) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** Plays the scenes the screenshots show; answers what the views are opened on. */
async function populate(base) {
  const good = await startWebhookReceiver();
  const failing = await startWebhookReceiver({ respond: () => ({ status: 500, body: '{"error":"database unavailable"}' }) });
  await call(base, 'POST', '/_mock/webhook_endpoints', { name: 'orders-service', url: good.url, auth_type: 'secret', secret: 'whsec_docs_example' });
  await call(base, 'POST', '/_mock/webhook_endpoints', {
    name: 'flaky-receiver',
    url: failing.url,
    auth_type: 'none',
    subscribed_events: ['data_source_run_batch.ready', 'data_source_run_batch.consolidated_report_ready'],
  });
  await call(base, 'POST', '/_mock/webhook_endpoints', { name: 'compliance-oauth', url: `${good.url}/oauth`, auth_type: 'oauth', enabled: false });
  const created = [];
  for (const scenario of [SCENARIOS.partnerTemporaryError, SCENARIOS.informationRequest, SCENARIOS.happyPartners]) {
    const body = {
      tin: scenario.tin,
      country: scenario.country,
      ...(scenario === SCENARIOS.informationRequest ? { information_request: { template_id: 'irt_docs' } } : {}),
    };
    created.push(await call(base, 'POST', '/api/v2/entity_validations', body, API_KEY));
  }
  // A request with a field the contract does not know, so the report shows a violation at its JSON path.
  await call(base, 'POST', '/api/v2/entity_validations', { tin: SCENARIOS.happyNoPartners.tin, country: 'CL', nickname: 'acme' }, API_KEY);
  for (let minute = 0; minute < 6; minute += 1) await call(base, 'POST', '/_mock/clock/advance', { seconds: 60 });
  const failed = await call(base, 'GET', `/_mock/events?endpoint_id=${(await call(base, 'GET', '/_mock/webhook_endpoints')).webhook_endpoints[1].id}&limit=1`);
  return { validation: created[2].id, event: failed.events[0]?.id, close: () => Promise.all([good.close(), failing.close()]) };
}

async function main() {
  const out = resolve(process.argv[2] ?? join(__dirname, '..', 'docs'));
  mkdirSync(out, { recursive: true });
  const server = await startServer({ http: true, port: 0, clock: 'manual', seed: 1 });
  const browser = await launchChromium();
  try {
    const scene = await populate(server.url);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const shots = [
      ['validations', `#/validations?id=${scene.validation}`, '[data-testid=tree] [data-testid=timeline]'],
      ['events', `#/events?event=${scene.event}`, '[data-testid=attempts]'],
      ['endpoints', '#/endpoints', '[data-endpoint=orders-service]'],
      ['clock', '#/clock', '[data-testid=clock]'],
      ['report', '#/report', '[data-testid=receivers]'],
    ];
    for (const [name, hash, ready] of shots) {
      await page.goto(`${server.url}/_mock/${hash}`);
      await page.waitForSelector(ready);
      await page.waitForSelector('[data-testid=live]:has-text("live")');
      const file = join(out, `dashboard-${name}.png`);
      await page.screenshot({ path: file });
      process.stdout.write(`${file}\n`);
    }
    await scene.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
