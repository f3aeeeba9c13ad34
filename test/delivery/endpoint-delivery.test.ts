import { mockParts } from '../../src/mock/create-mock';
import { createMock, type Mock } from '../../src/http';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { EVENT_SCHEMAS, parseWith, type EventType } from '../../src/schemas';
import type { EngineEvent } from '../../src/engine';

let receiver: WebhookReceiver;
let mock: Mock;

afterEach(async () => {
  mock?.dispose();
  await receiver?.close();
});

function create(tin: string, extra: Record<string, unknown> = {}): string {
  const result = mockParts(mock).world.engine.createValidation({ organizationId: 'default', request: { tin, country: 'CL', ...extra } });
  if (!result.ok) throw new Error(result.message);
  return result.value.id;
}

test('every event of happy-partners reaches the endpoint once, in the engine order, as the envelope', async () => {
  receiver = await startWebhookReceiver();
  mock = createMock({ clock: 'manual', webhookUrl: receiver.url });
  const emitted: EngineEvent[] = [];
  mockParts(mock).world.engine.subscribe((event) => emitted.push(event));
  create('76920415-6');
  await mock.drain();
  expect(receiver.received.map((hook) => (hook.body as { type: string }).type)).toEqual(emitted.map((event) => event.type));
  for (const hook of receiver.received) {
    const body = hook.body as { type: EventType };
    expect(parseWith(EVENT_SCHEMAS[body.type], body).ok).toBe(true);
    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers.authorization).toBeUndefined();
    expect(hook.method).toBe('POST');
  }
  const records = mockParts(mock).world.deliveries.list();
  expect(records.every((record) => record.status === 'succeeded' && record.attempts.length === 1 && record.attempts[0]!.response_code === 200)).toBe(true);
});
