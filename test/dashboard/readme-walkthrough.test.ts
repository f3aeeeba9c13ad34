import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/api-test-server';
import { chromiumUnavailable, launchChromium, SCREENSHOTS } from '../support/chromium';
import { freePort } from '../support/free-port';

// The README's "The dashboard" walk-through, as a new user does it: bvs-mock started as `npm start` starts it
// (HTTPS, the instant clock), the page open at /_mock/, then the README's shell block run as written in bash
// (its receiver on a free port instead of 3000, bvs-mock's port instead of 4010): the tree, the timeline and
// the deliveries must appear in the page without reloading it.

const unavailable = chromiumUnavailable();
const testInBrowser = unavailable === null ? test : test.skip;
if (unavailable !== null) process.stderr.write(`dashboard walk-through skipped: ${unavailable}\n`);

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const block = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).find((text) => text.includes('"name": "local"'))!;

let browser: Browser | undefined;
let t: TestServer | undefined;
let shell: ChildProcess | undefined;

afterAll(async () => {
  // The block's background receiver outlives bash: the whole group goes, whether bash has exited or not.
  if (shell?.pid !== undefined) {
    try {
      process.kill(-shell.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await browser?.close();
  await t?.close();
});

testInBrowser(
  'the README walk-through: an endpoint and a validation made with curl appear live in the open page',
  async () => {
    t = await startTestServer({ clock: 'instant' });
    browser = await launchChromium();
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${t.server.url}/_mock/#/validations`);
    await page.getByText('live', { exact: true }).waitFor();
    await page.locator('text=None yet').waitFor();

    const receiverPort = await freePort();
    const script = block.replaceAll('127.0.0.1:4010', `127.0.0.1:${t.server.port}`).replaceAll('3000', String(receiverPort));
    // Its own process group: the receiver the block starts in the background is stopped with it.
    shell = spawn('bash', ['-c', `set -euo pipefail\n${script}`], { detached: true });
    let output = '';
    shell.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => shell!.once('exit', resolve));
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });

    await page.locator('[data-testid=validations] li button').first().click();
    await page.locator('[data-testid=timeline] tbody tr', { hasText: 'data_source_run_batch.ready' }).locator('.badge', { hasText: 'succeeded' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, '10-readme-walkthrough.png') });
    await page.click('nav >> text=Events');
    await page.locator('[data-testid=events] tbody tr .badge', { hasText: 'succeeded' }).first().waitFor();
    expect(output).toContain('"type":"data_source_run_batch.ready"');
    await context.close();
  },
  120_000,
);
