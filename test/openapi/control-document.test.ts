import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRoutes } from '../../src/http';
import { controlOperations } from '../../src/api/routes/control-operations';
import { buildControlDocument, documentToJson, documentToYaml } from '../../src/openapi';
import { documentPath, errorsOf } from '../../src/openapi/register-routes';
import { ApiError, EntityValidation } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { DocumentAjv } from '../support/document-ajv';
import { bearer, startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS, HAPPY_PARTNERS, MISSING_INPUT_DATA } from '../support/built-in-tins';
import type { HttpAnswer } from '../support/https-client';
import { openEventStream } from '../support/event-stream';

// The control API as a contract (openapi/control.yaml): built from the control routes as the API's document is
// built from its routes, committed, served at /_mock/openapi.json, and true to what bvs-mock answers: every
// operation is called on a real run and each answer is checked against its documented schema by Ajv, and every
// error provoked is one the operation lists.

const ROOT = join(__dirname, '..', '..');
const CONTROL_TOKEN = 'control_token_for_document_tests';
const document = buildControlDocument();
const ajv = new DocumentAjv(document);

type Operation = { operationId: string; responses: Record<string, { description: string; content?: Record<string, unknown> }> };
const operations: Array<{ method: string; path: string; pattern: RegExp; operation: Operation }> = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
    method: method.toUpperCase(),
    path,
    pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
    operation,
  })),
);

test('the committed control.yaml and control.json are what the routes and schemas generate (run `npm run openapi` after a change)', () => {
  expect(readFileSync(join(ROOT, 'openapi', 'control.yaml'), 'utf8')).toBe(documentToYaml(document));
  expect(readFileSync(join(ROOT, 'openapi', 'control.json'), 'utf8')).toBe(documentToJson(document));
});

test('every control operation declares its document, and the document holds exactly them', () => {
  const control = allRoutes().filter((route) => route.access.kind === 'control');
  expect(control.filter((route) => route.document === undefined).map((route) => route.operation)).toEqual([]);
  expect(operations.map((entry) => entry.operation.operationId).sort()).toEqual(controlOperations().map((route) => route.operation).sort());
  expect(new Set(control.map((route) => route.operation))).toEqual(new Set(controlOperations().map((route) => route.operation)));
});

describe('against a running bvs-mock locked with a control token', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  const called = new Set<string>();
  const control = bearer(CONTROL_TOKEN);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestServer({ controlToken: CONTROL_TOKEN });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** The documented operation of a request. */
  function operationOf(method: string, target: string) {
    const path = target.split('?')[0]!;
    const found = operations.find((entry) => entry.method === method && entry.pattern.test(path));
    if (!found) throw new Error(`no documented operation for ${method} ${path}`);
    return found;
  }

  /** Sends a control call and checks its answer against the document: a success against its schema, an error by its listed codes. */
  async function call(method: string, target: string, body?: unknown, headers: Record<string, string> = control): Promise<HttpAnswer> {
    const answer =
      body === undefined
        ? await t.call(target, { method, headers })
        : await t.call(target, {
            method,
            headers: { 'content-type': typeof body === 'string' ? 'application/yaml' : 'application/json', ...headers },
            body: typeof body === 'string' ? body : JSON.stringify(body),
          });
    const { path, operation } = operationOf(method, target);
    const documented = operation.responses[String(answer.status)];
    expect({ call: `${method} ${target}`, status: answer.status, documented: documented !== undefined }).toEqual({
      call: `${method} ${target}`,
      status: answer.status,
      documented: true,
    });
    if (answer.status < 300) {
      called.add(operation.operationId);
      const mediaType = (answer.headers['content-type'] as string | undefined)?.split(';')[0];
      if (answer.status !== 204 && mediaType === 'application/json') {
        const validate = ajv.response(path, method.toLowerCase(), answer.status);
        const valid = validate(answer.json());
        expect({ call: `${method} ${target}`, errors: valid ? null : validate.errors }).toEqual({ call: `${method} ${target}`, errors: null });
      } else if (answer.status !== 204) {
        expect(Object.keys(documented!.content ?? {})).toContain(mediaType);
      }
    } else {
      const code = ApiError.parse(answer.json()).error.code;
      expect({ call: `${method} ${target}`, code, listed: documented!.description.includes(code) }).toEqual({ call: `${method} ${target}`, code, listed: true });
    }
    return answer;
  }

  const ok = async (method: string, target: string, body?: unknown) => {
    const answer = await call(method, target, body);
    if (answer.status >= 300) throw new Error(`${method} ${target}: ${answer.status} ${answer.text().slice(0, 300)}`);
    return answer;
  };

  test('every operation answers as its document says, on a real run with deliveries, information requests and faults', async () => {
    await ok('GET', '/_mock/health');
    await ok('GET', '/_mock/openapi.json');
    await ok('GET', '/_mock/openapi.yaml');
    await ok('GET', '/_mock/certificate');
    await ok('POST', '/_mock/reset');
    await ok('GET', '/_mock/clock');
    await ok('GET', '/_mock/scenarios');
    const scenario = `name: added-for-document
description: Added at run time by the control document test.
tins: ['76999998-5']
entity:
  tin: '76999998-5'
  country: CL
  category: business
  name: Documento SpA
  runs:
    - type: cl/sii
      outcomes: [{ succeeded: 5s }]
`;
    await ok('POST', '/_mock/scenarios', scenario);
    await ok('DELETE', '/_mock/scenarios/added-for-document');
    await ok('PATCH', '/_mock/organizations/default/settings', { child_batches_ready: true });
    const created = (await ok('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, auth_type: 'secret', secret: 'whsec_doc' })).json() as {
      webhook_endpoint: { id: string };
    };
    const endpointId = created.webhook_endpoint.id;
    await ok('GET', '/_mock/webhook_endpoints');
    await ok('PATCH', `/_mock/webhook_endpoints/${endpointId}`, { name: 'renamed' });
    await ok('POST', `/_mock/webhook_endpoints/${endpointId}/secret`, {});
    await ok('POST', '/_mock/receiver-checks', { endpoint_id: endpointId });
    await ok('GET', '/_mock/receiver-checks');
    await ok('POST', '/_mock/faults', { kind: 'duplicate_delivery', share: 0.5 });
    await ok('GET', '/_mock/faults');
    await ok('DELETE', '/_mock/faults');

    const validation = await t.create({ tin: HAPPY_PARTNERS, country: 'CL', information_request: { template_id: 'irt_document' } });
    await ok('GET', `/_mock/entity_validations/${validation.id}/settled`);
    await ok('POST', '/_mock/clock/advance', { seconds: 1 });
    await ok('POST', '/_mock/clock/run');
    const requestId = validation.information_requests[0]!.id;
    await ok('POST', `/_mock/information_requests/${requestId}/submit`, {});
    await ok('POST', `/_mock/information_requests/${requestId}/analyze`, { information_sheet: { ok: true } });
    await ok('POST', `/_mock/information_requests/${requestId}/assignments`, { reviewer_email: 'paula@client.example.com', role: 'responsible' });
    await ok('POST', `/_mock/information_requests/${requestId}/assignments/complete`, { reviewer_email: 'paula@client.example.com' });
    await ok('POST', `/_mock/information_requests/${requestId}/evaluate`, { comment: 'Approved.' });
    await ok('POST', `/_mock/entity_validations/${validation.id}/revalidate`, {});

    const waiting = await t.create({ tin: MISSING_INPUT_DATA, country: 'CL' });
    await ok('POST', '/_mock/clock/run');
    const read = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${waiting.id}`)).json());
    const run = read.data_source_run_batches[0]!.data_source_runs.find((candidate) => candidate.status === 'missing_input_data')!;
    await ok('POST', `/_mock/data_source_runs/${run.id}/input`, {});
    await ok('POST', '/_mock/clock/run');

    await ok('GET', '/_mock/organizations');
    await ok('GET', '/_mock/entity_validations?limit=2');
    await ok('GET', `/_mock/entity_validations/${validation.id}`);
    await ok('GET', '/_mock/events?order=newest&limit=2');
    // The stream never ends: its head and first event are checked, then it is hung up.
    const stream = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate, headers: control });
    expect({ status: stream.status, documented: Object.keys(operationOf('GET', '/_mock/stream').operation.responses['200']!.content ?? {}) }).toEqual({
      status: 200,
      documented: [(stream.headers['content-type'] as string).split(';')[0]],
    });
    await stream.waitFor(/event: ready/);
    stream.close();
    called.add('control.stream');
    const events = (await ok('GET', '/_mock/events?limit=5')).json() as { events: Array<{ id: string }> };
    await ok('GET', `/_mock/events/${events.events[0]!.id}`);
    await ok('POST', `/_mock/events/${events.events[0]!.id}/redeliver`, {});
    await ok('GET', `/_mock/emitted?entity_validation_id=${validation.id}`);
    await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_NO_PARTNERS, country: 'CL', nickname: 'x' }, bearer('test_key_default'));
    await ok('GET', '/_mock/requests?violations=true');
    await ok('GET', '/_mock/report');
    await ok('GET', '/_mock/drift');
    await ok('GET', '/_mock/report?format=markdown');
    const session = (await ok('POST', '/_mock/sessions', { label: 'control document', clock: { mode: 'manual' } })).json() as { id: string };
    await ok('GET', '/_mock/sessions');
    await ok('GET', `/_mock/sessions/${session.id}`);
    const snapshot = (await ok('GET', '/_mock/snapshot')).json();
    await ok('DELETE', `/_mock/sessions/${(await ok('POST', '/_mock/sessions', { snapshot })).json<{ id: string }>().id}`);
    await ok('DELETE', `/_mock/sessions/${session.id}`);
    expect((await call('DELETE', '/_mock/sessions/default')).status).toBe(409);
    await ok('GET', '/_mock/report?format=junit');
    await ok('DELETE', `/_mock/webhook_endpoints/${endpointId}`);

    expect([...called].sort()).toEqual(operations.map((entry) => entry.operation.operationId).sort());
  });

  test('the errors each operation answers (locked without the token, unknown organization, bad body, wrong media type, bad query) are ones it lists', async () => {
    const samples: Array<[string, string]> = operations.map(({ method, path }) => [
      method,
      path
        .replace('{id}', path.includes('organizations') ? 'default' : path.includes('webhook_endpoints') ? 'whe_doesnotexist' : path.includes('/events/') ? 'evt_doesnotexist' : path.includes('information_requests') ? 'irq_doesnotexist' : path.includes('data_source_runs') ? 'dsr_doesnotexist' : 'evl_doesnotexist')
        .replace('{name}', 'no-such-scenario'),
    ]);
    for (const [method, target] of samples) {
      const withBody = method !== 'GET' && method !== 'DELETE';
      await call(method, target, withBody ? { unexpected: true } : undefined, {});
      // With the token the stream answers 200 and stays open: the happy path above checks it.
      if (target !== '/_mock/stream') await call(method, target, withBody ? { unexpected: true } : undefined);
      await call(method, `${target}?organization_id=nobody`);
      if (withBody) await call(method, target, 'a,b', { ...control, 'content-type': 'text/csv' });
    }
    await call('GET', '/_mock/events?limit=0');
    await call('GET', '/_mock/events?order=sideways');
    await call('GET', '/_mock/entity_validations?cursor=nonsense');
    await call('GET', '/_mock/report?format=pdf');
    const listed = (operationId: string) => Object.values(operations.find((entry) => entry.operation.operationId === operationId)!.operation.responses).map((response) => response.description);
    expect(listed('control.health').join(' ')).not.toContain('unauthorized');
    expect(listed('control.reset').join(' ')).toContain('unauthorized');
    for (const route of controlOperations()) {
      const { operation } = operations.find((entry) => entry.operation.operationId === route.operation)!;
      const codes = Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([, response]) => /^Error: ([^.]*)\.$/.exec(response.description)![1]!.split(', '));
      expect(new Set(codes)).toEqual(new Set(errorsOf(route)));
      expect(documentPath(route.pattern)).toBe(operations.find((entry) => entry.operation.operationId === route.operation)!.path);
    }
  });

  test('GET /_mock/openapi.json serves the committed control.json, also without the control token', async () => {
    const answer = await t.call('/_mock/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.text()).toBe(readFileSync(join(ROOT, 'openapi', 'control.json'), 'utf8'));
    expect((await t.call('/_mock/openapi.yaml')).text()).toBe(readFileSync(join(ROOT, 'openapi', 'control.yaml'), 'utf8'));
    expect((await t.call('/_mock/clock')).status).toBe(401);
  });
});
