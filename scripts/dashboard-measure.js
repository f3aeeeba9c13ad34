// How the dashboard holds up with a long run loaded: 1,000 validations and 20,000 delivery records (the
// default retention), from the build (`npm run build` first). Prints how long each view takes to render
// in headless Chromium (/usr/bin/chromium, or CHROMIUM_PATH); figures only, nothing is asserted.
//   node scripts/dashboard-measure.js [validations]     (default 1000)
const { performance } = require('node:perf_hooks');
const { launchChromium } = require('./chromium');
const { startServer } = require('../dist/http');
const { SCENARIOS, startWebhookReceiver } = require('../dist/testing');

async function call(base, method, path, body, headers = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

const ms = (since) => `${(performance.now() - since).toFixed(0)} ms`;

async function main() {
  const count = Number(process.argv[2] ?? 1000);
  const receiver = await startWebhookReceiver();
  const server = await startServer({ http: true, port: 0, clock: 'manual', seed: 1 });
  const browser = await launchChromium();
  try {
    const base = server.url;
    // Two endpoints take every event: a happy-partners tree emits 12, so 1,000 trees make 24,000 deliveries, of which 20,000 are kept.
    for (const name of ['primary', 'secondary']) await call(base, 'POST', '/_mock/webhook_endpoints', { name, url: receiver.url });
    let started = performance.now();
    for (let index = 0; index < count; index += 1) {
      await call(base, 'POST', '/api/v2/entity_validations', { tin: SCENARIOS.happyPartners.tin, country: 'CL' }, { authorization: 'Bearer test_key_default' });
    }
    process.stdout.write(`created ${count} validations in ${ms(started)}\n`);
    started = performance.now();
    const run = await call(base, 'POST', '/_mock/clock/run', {});
    const kept = Object.values(run.deliveries).reduce((sum, n) => sum + n, 0);
    process.stdout.write(`played them, ${receiver.received.length} deliveries made, ${kept} records kept, in ${ms(started)}\n`);

    started = performance.now();
    await call(base, 'GET', '/_mock/events?order=newest&limit=50');
    process.stdout.write(`GET /_mock/events?order=newest&limit=50 with ${kept} records: ${ms(started)}\n`);
    started = performance.now();
    await call(base, 'GET', '/_mock/events?status=failed&limit=50');
    process.stdout.write(`GET /_mock/events?status=failed&limit=50 (no match, a full scan): ${ms(started)}\n`);

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const measure = async (label, action, ready) => {
      const begun = performance.now();
      await action();
      await page.waitForSelector(ready);
      process.stdout.write(`${label}: ${ms(begun)}\n`);
    };
    await measure('events view, first load (page, script, first 50 rows)', () => page.goto(`${base}/_mock/#/events`), '[data-testid=events] tbody tr');
    await measure('events view, next page', () => page.click('button:has-text("Older →")'), '[data-testid=events] tbody tr');
    await measure(
      'events view, filtered by type',
      () => page.selectOption('select[aria-label=Type]', 'data_source_run_batch.ready'),
      '[data-testid=events] tbody tr',
    );
    await measure('an event opened with its attempts', () => page.locator('[data-testid=events] tbody tr').first().click(), '[data-testid=attempts]');
    await measure('validations view (first 100 of the list)', () => page.goto(`${base}/_mock/#/validations`), '[data-testid=validations] li');
    await measure('a tree with its timeline', () => page.locator('[data-testid=validations] li button').first().click(), '[data-testid=timeline]');
    const nodes = await page.locator('*').count();
    process.stdout.write(`DOM elements on the tree view: ${nodes}\n`);
  } finally {
    await browser.close();
    await server.close();
    await receiver.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
