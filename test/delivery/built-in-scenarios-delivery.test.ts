import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BUILT_IN_SCENARIOS_DIR, ScenarioLibrary } from '../../src/engine/scenarios';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { expectDeliveryRecord, expectEnvelope, startDeliveryHarness, typeOf, type DeliveryHarness } from '../support/delivery-harness';
import { commentedEvents } from '../scenarios/expected-events';
import { BUILT_IN_SCENARIO_NAMES } from '../support/built-in-tins';

// Sweep: every built-in scenario, played on the instant clock to one endpoint subscribed to every
// event, reaches a real receiver on loopback exactly as the engine emitted it (spec §6 Envelope,
// Event order; docs/design.md "the same webhooks in the same order with the same payloads").

const library = ScenarioLibrary.builtIn();
const names = library.list().map((summary) => summary.name);

let receiver: WebhookReceiver | undefined;
let harness: DeliveryHarness | undefined;

afterEach(async () => {
  harness?.mock.dispose();
  harness = undefined;
  await receiver?.close();
  receiver = undefined;
});

test('the built-in library has the ten scenarios of docs/design.md', () => {
  expect([...names].sort()).toEqual([...BUILT_IN_SCENARIO_NAMES]);
});

test.each(names)('%s arrives at the endpoint in the engine order, byte for byte, each body its envelope', async (name) => {
  const scenario = library.byName(name)!;
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({ webhookUrl: receiver.url });
  // By TIN, with nothing else on the create call: information-request must bring its request itself (always: true).
  harness.create(scenario.tins?.[0] ?? scenario.entity.tin);
  await harness.playToEnd();

  const { emitted } = harness;
  expect(emitted.length).toBeGreaterThan(0);
  expect(receiver.received.map(typeOf)).toEqual(emitted.map((event) => event.type));
  expect(receiver.received.map((hook) => hook.raw)).toEqual(emitted.map((event) => JSON.stringify(event.body)));
  // The comment block of the file lists the exact events; the receiver gets those.
  const text = readFileSync(path.join(BUILT_IN_SCENARIOS_DIR, `${name}.yaml`), 'utf8');
  expect(receiver.received.map(typeOf)).toEqual(commentedEvents(text).map(([, type]) => type));
  for (const hook of receiver.received) {
    expectEnvelope(hook);
    expect(hook.method).toBe('POST');
    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers.authorization).toBeUndefined();
  }
  // The instant clock waits for each delivery: the one attempt happens at the event's own simulated time.
  const records = harness.records();
  expect(records).toHaveLength(emitted.length);
  records.forEach((record, index) => {
    expectDeliveryRecord(record);
    const event = emitted[index]!;
    expect({
      type: record.type,
      status: record.status,
      attempts: record.attempts.length,
      created_at: record.created_at,
      at: record.attempts[0]?.at,
      resource: record.resource_id,
    }).toEqual({
      type: event.type,
      status: 'succeeded',
      attempts: 1,
      created_at: event.emittedAt,
      at: event.emittedAt,
      resource: event.resourceId,
    });
  });
});

test('the instant clock waits for a slow receiver before moving time on: every attempt is at its event time', async () => {
  receiver = await startWebhookReceiver({ respond: () => ({ status: 200, delayMs: 40 }) });
  harness = startDeliveryHarness({ webhookUrl: receiver.url });
  harness.create('76354771-K');
  harness.create('76920415-6');
  await harness.mock.drain();
  const records = harness.records();
  expect(records).toHaveLength(harness.emitted.length);
  expect(records.map((record) => record.attempts.map((attempt) => attempt.at))).toEqual(harness.emitted.map((event) => [event.emittedAt]));
});

test('information-request sends its request events without the create call asking for one (always: true)', async () => {
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({ webhookUrl: receiver.url });
  expect(library.byName('information-request')!.information_request?.always).toBe(true);
  harness.create('76842059-9');
  await harness.playToEnd();
  const types = receiver.received.map(typeOf);
  expect(types.filter((type) => type.startsWith('information_request.'))).toEqual([
    'information_request.all_items_collected',
    'information_request.status_updated',
    'information_request.requestable_item.extracted',
    'information_request.requestable_item.extracted',
    'information_request.requestable_item.extracted',
    'information_request.analysis_success',
    'information_request.status_updated',
    'information_request.assignment.updated',
    'information_request.assignment.updated',
    'information_request.evaluated',
    'information_request.status_updated',
  ]);
});

test('missing-input-data delivers nothing past the waiting run until input is supplied', async () => {
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({ webhookUrl: receiver.url });
  harness.create('77049576-8');
  await harness.mock.drain();
  expect(receiver.received.map(typeOf)).toEqual([
    'data_source_run_batch.data_source_run.ready',
    'entity_validation.stakeholder.created',
    'data_source_run_batch.data_source_run.ready',
    'data_source_run_batch.data_source_run.ready',
  ]);
  await harness.playToEnd();
  expect(receiver.received.map(typeOf).slice(4)).toEqual([
    'data_source_run_batch.data_source_run.ready',
    'data_source_run_batch.ready',
    'data_source_run_batch.child_batches_ready',
    'data_source_run_batch.consolidated_report_ready',
  ]);
});
