import { mockParts } from '../../src/mock/create-mock';
import { createMock, type Mock } from '../../src/http';
import { probePayloads, type ProbeBody } from '../../src/probes/probe-payloads';
import { startRelayServer, type RunningRelay } from '../../src/http/start-relay';
import type { RelayAuth } from '../../src/relay/webhook-relay';
import { RelayReport, parseWith } from '../../src/schemas';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../src/testing';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { freePort } from '../support/free-port';

// `bvs-mock listen`: the relay between the service's deliveries and a local receiver (README "Relaying a sandbox's
// webhooks"), fed by a second bvs-mock as the upstream, everything on 127.0.0.1.

const SECRET = 'whsec_relay_test_0123456789abcdef';

let receiver: WebhookReceiver | undefined;
let relay: RunningRelay | undefined;
let upstream: Mock | undefined;

afterEach(async () => {
  upstream?.dispose();
  upstream = undefined;
  await relay?.close();
  relay = undefined;
  await receiver?.close();
  receiver = undefined;
});

async function startRelay(auth: RelayAuth, respond?: (hook: ReceivedWebhook, index: number) => number): Promise<RunningRelay> {
  receiver = await startWebhookReceiver(respond === undefined ? {} : { respond });
  relay = await startRelayServer({ host: '127.0.0.1', port: 0, tls: null, forwardTo: receiver.url, auth, timeoutMs: 5_000, insecureTls: false, strict: false });
  return relay;
}

async function report(running: RunningRelay): Promise<RelayReport> {
  const answer = await fetch(`${running.url}/_mock/relay`);
  expect(answer.status).toBe(200);
  const parsed = parseWith(RelayReport, await answer.json());
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

/** Plays happy-partners on an upstream bvs-mock whose endpoint points at the relay, to the end of its deliveries. */
async function playUpstream(running: RunningRelay, webhookSecret: string | null = SECRET): Promise<Mock> {
  upstream = createMock({ clock: 'manual', webhookUrl: `${running.url}/hooks`, webhookSecret: webhookSecret ?? undefined });
  const created = mockParts(upstream).world.engine.createValidation({ organizationId: 'default', request: { tin: HAPPY_PARTNERS, country: 'CL' } });
  if (!created.ok) throw new Error(created.message);
  await upstream.drain();
  return upstream;
}

function post(running: RunningRelay, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${SECRET}` }): Promise<Response> {
  return fetch(`${running.url}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

test('every delivery of a happy-partners tree reaches the receiver with its headers and body, in order, with no finding', async () => {
  const running = await startRelay({ kind: 'secret', value: SECRET });
  const mock = await playUpstream(running);
  const records = mockParts(mock).world.deliveries.list();
  expect(records.length).toBeGreaterThan(5);
  expect(records.every((record) => record.status === 'succeeded')).toBe(true);
  const bodies = receiver!.received.map((hook) => hook.raw);
  expect(bodies).toEqual(records.map((record) => JSON.stringify(record.payload)));
  for (const hook of receiver!.received) {
    expect(hook.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['user-agent']).toMatch(/bvs-mock/);
  }
  const relayed = await report(running);
  expect(relayed.findings).toEqual([]);
  expect(relayed.deliveries.map((delivery) => delivery.event_type)).toEqual(receiver!.received.map((hook) => (hook.body as { type: string }).type));
  const root = relayed.deliveries[0]!.tree_id;
  expect(relayed.deliveries.every((delivery) => delivery.tree_id === root && delivery.attempt === 1 && delivery.answer.status === 200)).toBe(true);
  expect(relayed.deliveries.every((delivery) => delivery.path === '/hooks' && delivery.headers.authorization === undefined)).toBe(true);
  expect(relayed.deliveries[0]!.headers['x-bvs-mock-origin']).toBe('****');
});

test("the receiver's 500 goes back to the upstream, which retries; the relay counts the attempts", async () => {
  let failed = false;
  const running = await startRelay({ kind: 'secret', value: SECRET }, (hook) => {
    if (!failed && (hook.body as { type: string }).type === 'data_source_run_batch.ready') {
      failed = true;
      return 500;
    }
    return 200;
  });
  const mock = await playUpstream(running);
  const ready = mockParts(mock)
    .world.deliveries.list()
    .find((record) => record.type === 'data_source_run_batch.ready')!;
  expect(ready.attempts.map((attempt) => attempt.response_code)).toEqual([500, 200]);
  const relayed = await report(running);
  const readies = relayed.deliveries.filter((delivery) => delivery.event_type === 'data_source_run_batch.ready');
  expect(readies.map((delivery) => [delivery.attempt, delivery.answer.status])).toEqual([
    [1, 500],
    [2, 200],
  ]);
  // The retry comes after later events: a retry is no order finding (§6 Subscription and delivery, rule 3).
  expect(relayed.findings).toEqual([]);
});

test('an out-of-order sequence is reported with the rule and the events involved', async () => {
  const running = await startRelay({ kind: 'secret', value: SECRET });
  const { happyPartners } = await probePayloads();
  const index = (type: string) => happyPartners.findIndex((body) => body.type === type);
  const cbr = index('data_source_run_batch.child_batches_ready');
  const report_ = index('data_source_run_batch.consolidated_report_ready');
  const stakeholder = index('entity_validation.stakeholder.created');
  const main = (happyPartners[0]!.data_source_run as { entity_validation_id: string }).entity_validation_id;
  const firstPartnerRun = happyPartners.findIndex(
    (body) =>
      body.type === 'data_source_run_batch.data_source_run.ready' && (body.data_source_run as { entity_validation_id: string }).entity_validation_id !== main,
  );
  // The report before child_batches_ready, and a partner's run before the stakeholder.created that announces it.
  const order: ProbeBody[] = happyPartners.filter((_body, at) => at !== cbr && at !== report_ && at !== stakeholder && at !== firstPartnerRun);
  const crafted = [
    ...order.slice(0, 2),
    happyPartners[firstPartnerRun]!,
    happyPartners[stakeholder]!,
    ...order.slice(2),
    happyPartners[report_]!,
    happyPartners[cbr]!,
  ];
  for (const body of crafted) expect((await post(running, body)).status).toBe(200);
  const relayed = await report(running);
  const rules = relayed.findings.map((finding) => [finding.kind, finding.rule.split(':')[0], finding.events.map((event) => event.event_type)]);
  expect(rules).toEqual([
    ['order', '§6 Event order, rule 4, and Payload rules, rule 1', ['data_source_run_batch.data_source_run.ready', 'entity_validation.stakeholder.created']],
    [
      'order',
      '§6 Event order, rule 3, and Payload rules, rule 5',
      ['data_source_run_batch.consolidated_report_ready', 'data_source_run_batch.child_batches_ready'],
    ],
  ]);
  const [announce, late] = relayed.findings;
  expect(announce!.events[0]!.resource_id).toBe((happyPartners[firstPartnerRun]!.data_source_run as { id: string }).id);
  expect(late!.events.map((event) => event.delivery_id)).toEqual([`rly_${crafted.length - 1}`, `rly_${crafted.length}`]);
  expect(late!.tree_id).toBe(main);
  expect(Date.parse(late!.events[0]!.arrived_at)).toBeLessThanOrEqual(Date.parse(late!.events[1]!.arrived_at));
});

test('an upstream whose child_batches_ready is held back past the report is reported naming the rule and both events', async () => {
  const running = await startRelay({ kind: 'secret', value: SECRET });
  upstream = createMock({ clock: 'manual', webhookUrl: `${running.url}/hooks`, webhookSecret: SECRET });
  // A delivery held back joins its queue behind what was emitted meanwhile: the report overtakes it on the wire.
  mockParts(upstream).world.faults.add({ kind: 'delay_delivery', share: 1, seconds: 600, event_type: 'data_source_run_batch.child_batches_ready' });
  const created = mockParts(upstream).world.engine.createValidation({ organizationId: 'default', request: { tin: HAPPY_PARTNERS, country: 'CL' } });
  if (!created.ok) throw new Error(created.message);
  await upstream.drain();
  const relayed = await report(running);
  expect(relayed.deliveries.slice(-2).map((delivery) => delivery.event_type)).toEqual([
    'data_source_run_batch.consolidated_report_ready',
    'data_source_run_batch.child_batches_ready',
  ]);
  expect(relayed.findings.map((finding) => [finding.rule.split(':')[0], finding.message, finding.tree_id])).toEqual([
    ['§6 Event order, rule 3, and Payload rules, rule 5', 'consolidated_report_ready came before child_batches_ready', created.value.id],
  ]);
  expect(relayed.findings[0]!.events.map((event) => event.delivery_id)).toEqual(relayed.deliveries.slice(-2).map((delivery) => delivery.id));
});

test("a main run completing after its batch's ready, and a run after child_batches_ready, are each reported", async () => {
  const running = await startRelay({ kind: 'secret', value: SECRET });
  const { happyPartners } = await probePayloads();
  const ready = happyPartners.findIndex((body) => body.type === 'data_source_run_batch.ready');
  const cbr = happyPartners.findIndex((body) => body.type === 'data_source_run_batch.child_batches_ready');
  // The main entity's last run moved after the ready; the last partner run moved after child_batches_ready.
  const lastMainRun = ready - 1;
  const lastPartnerRun = cbr - 1;
  const crafted = happyPartners.filter((_body, at) => at !== lastMainRun && at !== lastPartnerRun);
  crafted.splice(crafted.indexOf(happyPartners[ready]!) + 1, 0, happyPartners[lastMainRun]!);
  crafted.splice(crafted.indexOf(happyPartners[cbr]!) + 1, 0, happyPartners[lastPartnerRun]!);
  for (const body of crafted) expect((await post(running, body)).status).toBe(200);
  const relayed = await report(running);
  expect(relayed.findings.map((finding) => [finding.rule.split(':')[0], finding.events.map((event) => event.event_type)])).toEqual([
    ['§6 Event order, rules 1 and 2', ['data_source_run_batch.ready', 'data_source_run_batch.data_source_run.ready']],
    ['§6 Event order, rule 3, and Payload rules, rule 4', ['data_source_run_batch.child_batches_ready', 'data_source_run_batch.data_source_run.ready']],
  ]);
});

test('a delivery without the configured authorization, or with another secret, is reported and still relayed; no credential is kept', async () => {
  const running = await startRelay({ kind: 'secret', value: SECRET });
  const { happyPartners } = await probePayloads();
  expect((await post(running, happyPartners[0], {})).status).toBe(200);
  expect((await post(running, happyPartners[1], { authorization: 'Bearer whsec_someone_elses_secret_99' })).status).toBe(200);
  expect((await post(running, happyPartners[2])).status).toBe(200);
  const relayed = await report(running);
  expect(relayed.findings.map((finding) => [finding.kind, finding.message, finding.events[0]!.delivery_id])).toEqual([
    ['authorization', 'no Authorization header came', 'rly_1'],
    ['authorization', 'the Authorization header is not the bearer secret of the endpoint given with --auth', 'rly_2'],
  ]);
  expect(receiver!.received).toHaveLength(3);
  const text = JSON.stringify(relayed);
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain('someone_elses');
});

test.each<[string, RelayAuth, string | null]>([
  ['none', { kind: 'none' }, null],
  ['secret', { kind: 'secret', value: SECRET }, SECRET],
])('with --auth %s, an upstream tree relays with no finding and no credential in the report', async (_name, auth, webhookSecret) => {
  const running = await startRelay(auth);
  await playUpstream(running, webhookSecret);
  const relayed = await report(running);
  expect(relayed.findings).toEqual([]);
  expect(relayed.deliveries.length).toBe(receiver!.received.length);
  expect(JSON.stringify(relayed)).not.toContain(SECRET);
});

test('a body that is not an event envelope is reported with its JSON paths', async () => {
  const running = await startRelay({ kind: 'none' });
  expect((await post(running, { type: 'data_source_run_batch.ready', data_source_run_batch: { id: 42 } }, {})).status).toBe(200);
  const [finding] = (await report(running)).findings;
  expect(finding!.kind).toBe('envelope');
  expect(finding!.message).toMatch(/data_source_run_batch\.id/);
});

test('a relay whose --forward-to points back at itself answers 508 instead of forwarding for ever', async () => {
  const port = await freePort();
  relay = await startRelayServer({
    host: '127.0.0.1',
    port,
    tls: null,
    forwardTo: `http://127.0.0.1:${port}/again`,
    auth: { kind: 'none' },
    timeoutMs: 5_000,
    insecureTls: false,
    strict: false,
  });
  const { happyPartners } = await probePayloads();
  const answer = await post(relay, happyPartners[0], {});
  expect(answer.status).toBe(508);
  expect(await answer.text()).toContain('points back at this relay');
  const relayed = await report(relay);
  expect(relayed.deliveries.map((delivery) => [delivery.path, delivery.answer.status])).toEqual([['/hooks', 508]]);
});
