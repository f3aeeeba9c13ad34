import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentToJson, documentToYaml } from '../../src/openapi';
import { buildToolsDocument } from '../../src/openapi/build-tools-document';
import { probePayloads } from '../../src/probes/probe-payloads';
import { startRelayServer, type RunningRelay } from '../../src/http/start-relay';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { DocumentAjv } from '../support/document-ajv';

// The tools' document (openapi/tools.yaml): what `bvs-mock listen` answers on its own port, committed, and true to
// what the relay answers, checked by Ajv against the document rather than the zod schema it was built from.

const ROOT = join(__dirname, '..', '..');
const document = buildToolsDocument();

let receiver: WebhookReceiver | undefined;
let relay: RunningRelay | undefined;

afterEach(async () => {
  await relay?.close();
  relay = undefined;
  await receiver?.close();
  receiver = undefined;
});

test('the committed tools.yaml and tools.json are what the schemas generate (run `npm run openapi` after a change)', () => {
  expect(readFileSync(join(ROOT, 'openapi', 'tools.yaml'), 'utf8')).toBe(documentToYaml(document));
  expect(readFileSync(join(ROOT, 'openapi', 'tools.json'), 'utf8')).toBe(documentToJson(document));
  expect(Object.keys(document.paths ?? {})).toEqual(['/_mock/relay']);
});

test("GET /_mock/relay answers as the document says, with deliveries and findings, and asks for the --control-token it was given", async () => {
  receiver = await startWebhookReceiver();
  relay = await startRelayServer({
    host: '127.0.0.1',
    port: 0,
    tls: null,
    controlToken: 'relay_control_token',
    forwardTo: receiver.url,
    auth: { kind: 'none' },
    timeoutMs: 5_000,
    insecureTls: false,
    strict: false,
  });
  const { happyPartners } = await probePayloads();
  for (const body of [happyPartners[0], { type: 'unknown.event' }])
    await fetch(`${relay.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await fetch(`${relay.url}/_mock/relay`)).status).toBe(401);
  const answer = await fetch(`${relay.url}/_mock/relay`, { headers: { authorization: 'Bearer relay_control_token' } });
  expect(answer.status).toBe(200);
  const report = (await answer.json()) as { deliveries: unknown[]; findings: unknown[] };
  expect(report.deliveries).toHaveLength(2);
  expect(report.findings).toHaveLength(1);
  const validate = new DocumentAjv(document).at('/paths/~1_mock~1relay/get/responses/200/content/application~1json/schema');
  expect(validate(report) ? [] : validate.errors).toEqual([]);
});
