import { startServer, type StartedServer } from '../../src/http';
import { ControlApiError, SCENARIOS, connectBvsMock, startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { bearer } from '../support/api-test-server';
import { BUILT_IN_SCENARIO_NAMES } from '../support/built-in-tins';
import { httpClient, type HttpClient } from '../support/https-client';

// bvs-mock/testing's control client against a real bvs-mock over HTTPS, as a test suite in another
// process (or a container) drives it: every control call typed, refusals thrown with bvs-mock's error.

let server: StartedServer;
let api: HttpClient;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startServer({ port: 0, clock: 'manual', controlToken: 'control-token-for-tests' });
  api = httpClient({ baseUrl: server.url, ca: server.certificate });
});

afterAll(async () => {
  api.close();
  await server.close();
  await receiver.close();
});

const control = () => connectBvsMock(server.url, { ca: server.certificate ?? undefined, controlToken: 'control-token-for-tests' });

async function createValidation(tin: string, extra: Record<string, unknown> = {}): Promise<{ id: string; information_requests: Array<{ id: string }> }> {
  const answer = await api.request('/api/v2/entity_validations', {
    method: 'POST',
    headers: { ...bearer('test_key_default'), 'content-type': 'application/json' },
    body: JSON.stringify({ tin, country: 'CL', ...extra }),
  });
  expect(answer.status).toBe(201);
  return answer.json();
}

beforeEach(async () => {
  await control().reset();
  receiver.received.length = 0;
  receiver.respond(() => 200);
});

test('SCENARIOS names every built-in scenario with the TIN that selects it', () => {
  expect(Object.values(SCENARIOS).map((scenario) => scenario.name)).toEqual([...BUILT_IN_SCENARIO_NAMES]);
  expect(SCENARIOS.happyPartners).toEqual({ name: 'happy-partners', tin: '76920415-6', country: 'CL' });
});

test('a locked control API refuses a client without the token with a ControlApiError carrying the 401', async () => {
  const error = await connectBvsMock(server.url, { ca: server.certificate ?? undefined })
    .clock()
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ControlApiError);
  expect((error as ControlApiError).status).toBe(401);
  expect((error as ControlApiError).message).toMatch(/^bvs-mock: GET \/_mock\/clock answered 401 unauthorized: /);
});

test('endpoints with a chosen secret, the clock, delivery records, redelivery and faults', async () => {
  const client = control();
  const { webhook_endpoint: endpoint, secret } = await client.createEndpoint({
    name: 'hooks',
    url: receiver.url,
    auth_type: 'secret',
    secret: 'chosen_secret',
    subscribed_events: ['data_source_run_batch.ready'],
  });
  expect(secret).toBe('chosen_secret');
  expect((await client.endpoints()).map((listed) => listed.id)).toEqual([endpoint.id]);
  let answered = 0;
  receiver.respond(() => (answered++ === 0 ? 500 : 200));
  await client.addFault({ kind: 'api_latency', ms: 1, path: '/api/v2/webhook_endpoints' });
  expect(await client.faults()).toHaveLength(1);
  await createValidation(SCENARIOS.happyNoPartners.tin);
  const advanced = await client.advance(600);
  expect(advanced.fired).toBeGreaterThan(0);
  const [record] = await client.allEvents({ type: 'data_source_run_batch.ready' });
  expect(record!.attempts.length).toBeGreaterThanOrEqual(2);
  expect(record!.status).toBe('succeeded');
  expect(receiver.received.at(-1)!.headers.authorization).toBe('Bearer chosen_secret');
  const redelivered = await client.redeliver(record!.id);
  expect(redelivered.attempts.at(-1)!.trigger).toBe('redelivery');
  expect((await client.event(record!.id)).attempts).toHaveLength(redelivered.attempts.length);
  await client.clearFaults();
  expect(await client.setEndpointSecret(endpoint.id, 'second_secret')).toBe('second_secret');
  await client.updateEndpoint(endpoint.id, { enabled: false });
  await client.deleteEndpoint(endpoint.id);
  expect(await client.endpoints()).toEqual([]);
  expect((await client.health()).status).toBe('ok');
});

test('an information request driven through the client in the order it allows; a wrong order is a ControlApiError 409', async () => {
  const client = control();
  const created = await createValidation(SCENARIOS.happyNoPartners.tin, { information_request: { template_id: 'irt_client' } });
  const id = created.information_requests[0]!.id;
  await expect(client.informationRequest.evaluate(id, 'Too early.')).rejects.toMatchObject({ status: 409 });
  expect((await client.informationRequest.submit(id)).status).toBe('items_collected');
  expect((await client.informationRequest.analyze(id, { information_sheet: { ok: true } })).status).toBe('in_review');
  await client.informationRequest.assign(id, { reviewer_email: 'paula@client.example.com', role: 'responsible' });
  await client.informationRequest.completeAssignment(id, 'paula@client.example.com');
  expect((await client.informationRequest.evaluate(id, 'Approved.')).status).toBe('evaluated');
});

test('scenarios, revalidation, settings, the journal and the report in every format', async () => {
  const client = control();
  await client.addScenario({
    name: 'client-added',
    description: 'Added through the client.',
    tins: ['76999999-3'],
    entity: { tin: '76999999-3', country: 'CL', category: 'business', name: 'Cliente SpA', runs: [{ type: 'cl/sii', outcomes: [{ succeeded: '5s' }] }] },
  });
  expect((await client.scenarios()).map((scenario) => scenario.name)).toContain('client-added');
  await client.removeScenario('client-added');
  expect((await client.scenarios()).map((scenario) => scenario.name)).not.toContain('client-added');

  await client.settings({ child_batches_ready: false });
  const created = await createValidation(SCENARIOS.happyPartners.tin, { nickname: 'x' });
  await expect(client.revalidate(created.id)).rejects.toMatchObject({ status: 409 });
  await client.run();
  expect((await client.revalidate(created.id)).data_source_run_batches).toHaveLength(2);

  const journal = await client.requests({ violations: true });
  expect(journal.requests.map((entry) => entry.violations.map((violation) => violation.path))).toEqual([['$.nickname']]);
  expect((await client.report()).violations.violating_requests).toBe(1);
  expect(await client.report('junit')).toContain('$.nickname unknown_field');
  expect(await client.report('markdown')).toMatch(/^# bvs-mock contract report/);
});

test('waitForEvent and waitForSettled follow the emitted events of a validation; eventsFor lists them in order', async () => {
  const client = control();
  await client.createEndpoint({ name: 'hooks', url: receiver.url });
  const created = await createValidation(SCENARIOS.happyPartners.tin);
  const waiting = client.waitForEvent('data_source_run_batch.consolidated_report_ready', { validationId: created.id, timeoutMs: 5_000 });
  expect(await client.isSettled(created.id)).toBe(false);
  await client.advance(30);
  await client.run();
  const report = await waiting;
  expect(report.entity_validation_id).toBe(created.id);
  const events = await client.waitForSettled(created.id, { timeoutMs: 5_000 });
  expect(events.map((event) => event.sequence)).toEqual([...events.map((event) => event.sequence)].sort((a, b) => a - b));
  expect(events.at(-1)!.type).toBe('data_source_run_batch.consolidated_report_ready');
  expect(events.filter((event) => event.type === 'entity_validation.stakeholder.created')).toHaveLength(1);
  await expect(client.waitForEvent('information_request.evaluated', { validationId: created.id, timeoutMs: 100 })).rejects.toThrow(
    /no information_request.evaluated was emitted for evl_\w+ within 100 ms \(emitted: .*data_source_run_batch.ready.*\)/,
  );
  await expect(client.isSettled('evl_unknown')).rejects.toMatchObject({ status: 404 });
});
