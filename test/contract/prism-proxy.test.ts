import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startServer, type StartedServer } from '../../src/http';
import { freePort } from '../support/free-port';

// Prism, as a real process, proxies to bvs-mock and checks every answer against the generated
// OpenAPI document (`--errors`: a violation becomes a 500 with an sl-violations header). This is an
// independent validator's word that bvs-mock answers as its document says, and it shows the workflow
// a client team uses to check its own requests (docs/design.md, user 3).
const ROOT = join(__dirname, '..', '..');
const KEY = { authorization: 'Bearer test_key_default' };
let mock: StartedServer;
let prism: ChildProcess;
let proxy: string;

beforeAll(async () => {
  mock = await startServer({ port: 0, http: true, clock: 'manual' });
  const port = await freePort();
  proxy = `http://127.0.0.1:${port}`;
  prism = spawn(
    join(ROOT, 'node_modules', '.bin', 'prism'),
    ['proxy', 'openapi/openapi.yaml', mock.url, '-p', String(port), '-h', '127.0.0.1', '--errors', '-v', 'error'],
    { cwd: ROOT, stdio: 'ignore' },
  );
  for (let tries = 0; ; tries += 1) {
    try {
      await fetch(`${proxy}/api/v2/webhook_endpoints`, { headers: KEY });
      return;
    } catch (error) {
      if (tries > 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}, 30_000);

afterAll(async () => {
  const exited = new Promise((resolve) => prism.once('exit', resolve));
  prism.kill('SIGTERM');
  await exited;
  await mock.close();
});

async function through(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${proxy}${path}`, { method, body: init.body, headers: { ...KEY, ...init.headers } });
  const text = await response.text();
  return { status: response.status, violations: response.headers.get('sl-violations'), body: text };
}

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test('every operation of the document answers through Prism without a single violation', async () => {
  const calls: Array<[string, Awaited<ReturnType<typeof through>>, number]> = [];
  const record = async (label: string, expected: number, call: Promise<Awaited<ReturnType<typeof through>>>) => {
    const answer = await call;
    calls.push([label, answer, expected]);
    return JSON.parse(answer.body) as Record<string, any>;
  };
  await record(
    'token',
    200,
    through('POST', '/oauth/token', {
      body: 'grant_type=client_credentials&client_id=default_client&client_secret=default_secret',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  );
  await record('endpoints', 200, through('GET', '/api/v2/webhook_endpoints'));
  const created = await record(
    'create',
    201,
    through('POST', '/api/v2/entity_validations', json({ tin: '76265310-9', country: 'CL', information_request: { template_id: 'irt_prism' } })),
  );
  await record('create wrapped', 201, through('POST', '/api/v2/entity_validations', json({ entity_validation: { tin: '76920415-6', country: 'CL' } })));
  await fetch(`${mock.url}/_mock/clock/run`, { method: 'POST' });
  const validation = await record('read', 200, through('GET', `/api/v2/entity_validations/${created.id}`));
  const batch = validation.data_source_run_batches[0];
  await record('records', 200, through('GET', `/api/v2/data_source_runs/${batch.data_source_runs[0].id}/records`));
  await record('batch', 200, through('GET', `/api/v2/data_source_run_batches/${batch.id}`));
  await record('report', 202, through('POST', `/api/v2/data_source_run_batches/${batch.id}/consolidated_report`));
  await record('formation', 200, through('GET', `/api/v2/entity_validations/${created.id}/formation`));
  await record(
    'stakeholders',
    201,
    through(
      'POST',
      `/api/v2/entity_validations/${created.id}/stakeholders`,
      json({ stakeholders: [{ tin: '15234567-1', category: 'person', name: 'Pedro', surname: 'Lagos' }] }),
    ),
  );
  await record('information request', 200, through('GET', `/api/v2/information_requests/${validation.information_requests[0].id}`));
  await record('not found', 404, through('GET', '/api/v2/entity_validations/evl_01JD5ZQ8K3M7T2XW9Y4B6C1N0P'));
  await record('unknown key', 401, through('GET', '/api/v2/webhook_endpoints', { headers: { authorization: 'Bearer not_a_key' } }));
  expect(calls.map(([label, answer]) => [label, answer.status, answer.violations])).toEqual(calls.map(([label, , expected]) => [label, expected, null]));
});

test('Prism refuses a client request that breaks the document, naming the field', async () => {
  const answer = await through('POST', '/api/v2/entity_validations', json({ tin: '76920415-6', country: 'cl' }));
  expect(answer.status).toBe(422);
  expect(answer.body).toContain('country');
});
