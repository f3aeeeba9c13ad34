import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import type { DeliveryEvent, EventType } from '../../src/schemas';
import { bearer, DEFAULT_API_KEY, startTestServer, useTestServer } from '../support/api-test-server';
import { defaultOrganizationWith } from '../support/delivery-harness';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// Deliveries queued by an action (an information request's submit, the stakeholders POST, the on-demand
// report) are sent at the action's instant, even when the manual clock is moved at once. Only the first
// delivery of a receiver's queue started at once; the manual clock moved on without waiting for the
// rest, so after `submit` and an immediate `advance` of 1800 s, `status_updated`'s first attempt was
// stamped 30 minutes after the event.

const ADVANCE_SECONDS = 1800;

let receiver: WebhookReceiver;
beforeAll(async () => {
  // Answers after 200 real ms: the next delivery of its queue waits that long for its turn.
  receiver = await startWebhookReceiver({ respond: () => ({ status: 200, delayMs: 200 }) });
});
afterAll(async () => {
  await receiver.close();
});

const SUBSCRIBED: EventType[] = [
  'information_request.all_items_collected',
  'information_request.status_updated',
  'entity_validation.stakeholder.created',
  'data_source_run_batch.consolidated_report_ready',
];

const t = useTestServer(() => ({ config: defaultOrganizationWith([{ url: receiver.url, subscribed_events: SUBSCRIBED }]) }));

/** Every delivery record of `type`, once every delivery has ended (the run also plays the rest of the scenario). */
async function recordsOf(types: readonly EventType[]): Promise<DeliveryEvent[]> {
  await t.runClock();
  const { events } = (await t.call('/_mock/events?limit=1000')).json<{ events: DeliveryEvent[] }>();
  return events.filter((event) => types.includes(event.type as EventType));
}

/** Each record's type, its event's instant and its first attempt's instant: the two instants must be one. */
const firstAttempts = (records: readonly DeliveryEvent[]) =>
  records.map((record) => ({ type: record.type, created_at: record.created_at, first_attempt_at: record.attempts[0]?.at ?? null }));
const atOwnTime = (records: readonly DeliveryEvent[]) =>
  records.map((record) => ({ type: record.type, created_at: record.created_at, first_attempt_at: record.created_at }));

async function clockNow(): Promise<string> {
  return (await t.call('/_mock/clock')).json<{ now: string }>().now;
}

test('after submit on an information request and an immediate advance, each queued event is first attempted at its own time', async () => {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL', information_request: { template_id: 'irt_first_attempt' } });
  const id = created.information_requests[0]!.id;
  const actedAt = await clockNow();
  expect((await t.json('POST', `/_mock/information_requests/${id}/submit`, {})).status).toBe(202);
  await t.advance(ADVANCE_SECONDS);
  const records = await recordsOf(['information_request.all_items_collected', 'information_request.status_updated']);
  expect(records.map((record) => [record.type, record.created_at])).toEqual([
    ['information_request.all_items_collected', actedAt],
    ['information_request.status_updated', actedAt],
  ]);
  expect(firstAttempts(records)).toEqual(atOwnTime(records));
});

test('after two stakeholders POSTs and an immediate advance, each stakeholder.created is first attempted at its own time', async () => {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  const actedAt = await clockNow();
  for (const [tin, name] of [
    ['11111111-1', 'Rosa'],
    ['22222222-2', 'Pedro'],
  ]) {
    const body = { stakeholders: [{ tin, category: 'person', name, surname: 'Díaz' }] };
    expect((await t.json('POST', `/api/v2/entity_validations/${created.id}/stakeholders`, body, bearer(DEFAULT_API_KEY))).status).toBe(201);
  }
  await t.advance(ADVANCE_SECONDS);
  const records = await recordsOf(['entity_validation.stakeholder.created']);
  expect(records.map((record) => record.created_at)).toEqual([actedAt, actedAt]);
  expect(firstAttempts(records)).toEqual(atOwnTime(records));
});

test('after two on-demand reports and an immediate advance, each consolidated_report_ready is first attempted at its own time', async () => {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  const batchId = created.data_source_run_batches[0]!.id;
  const actedAt = await clockNow();
  for (let call = 0; call < 2; call += 1) {
    const answer = await t.call(`/api/v2/data_source_run_batches/${batchId}/consolidated_report`, { method: 'POST', headers: bearer(DEFAULT_API_KEY) });
    expect(answer.status).toBe(202);
  }
  await t.advance(ADVANCE_SECONDS);
  const records = await recordsOf(['data_source_run_batch.consolidated_report_ready']);
  // The two asked for, then the scenario's own report when its time comes.
  expect(records.slice(0, 2).map((record) => record.created_at)).toEqual([actedAt, actedAt]);
  expect(firstAttempts(records)).toEqual(atOwnTime(records));
});

test('on the instant clock too, an advance right after submit leaves each queued event its own time', async () => {
  const instant = await startTestServer({ clock: 'instant', config: defaultOrganizationWith([{ url: receiver.url, subscribed_events: SUBSCRIBED }]) });
  try {
    const created = await instant.create({ tin: HAPPY_NO_PARTNERS, country: 'CL', information_request: { template_id: 'irt_first_attempt' } });
    await instant.runClock();
    const actedAt = (await instant.call('/_mock/clock')).json<{ now: string }>().now;
    expect((await instant.json('POST', `/_mock/information_requests/${created.information_requests[0]!.id}/submit`, {})).status).toBe(202);
    await instant.advance(ADVANCE_SECONDS);
    await instant.runClock();
    const { events } = (await instant.call('/_mock/events?limit=1000')).json<{ events: DeliveryEvent[] }>();
    const records = events.filter((event) => event.type.startsWith('information_request.'));
    expect(records.map((record) => record.created_at)).toEqual([actedAt, actedAt]);
    expect(firstAttempts(records)).toEqual(atOwnTime(records));
  } finally {
    await instant.close();
  }
});
