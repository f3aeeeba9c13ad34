import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildControlDocument, buildOpenApiDocument } from '../../src/openapi';
import { startBvsMock, startWebhookReceiver, SCENARIOS } from '../../src/testing';
import { ROOT, spawnCli } from '../support/built-cli';

// One version, read from package.json alone, everywhere a user meets it.

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test('bvs-mock --version prints the package version', async () => {
  const child = spawnCli(['--version']);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  expect(stdout.trim()).toBe(VERSION);
});

test("both documents, /_mock/health (with the API it imitates), the webhooks' User-Agent and the CHANGELOG say the same version", async () => {
  expect(buildOpenApiDocument().info.version).toBe(VERSION);
  expect(buildControlDocument().info.version).toBe(VERSION);
  expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toContain(`\n## ${VERSION}\n`);
  const receiver = await startWebhookReceiver();
  const bvs = await startBvsMock({ clock: 'instant' });
  try {
    const health = await bvs.control.health();
    expect(health).toMatchObject({ version: VERSION, imitates: { service: 'Business Validation Service', api: '/api/v2' } });
    await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url });
    const created = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' }),
    });
    await bvs.control.waitForSettled(((await created.json()) as { id: string }).id);
    expect(new Set(receiver.received.map((webhook) => webhook.headers['user-agent']))).toEqual(new Set([`bvs-mock/${VERSION}`]));
  } finally {
    await bvs.stop();
    await receiver.close();
  }
});
