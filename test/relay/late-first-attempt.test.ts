import { createMock, type Mock } from '../../src/http';
import { mockParts } from '../../src/mock/create-mock';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { freePort } from '../support/free-port';
import { relayReport, startPlainRelay } from './relay-test-kit';

// A relay that was down when a tree began (started late, or restarted): the upstream's first attempts of the
// tree's first events found nothing listening, and their retries arrive after later events of the tree.

let upstream: Mock | undefined;
let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  upstream?.dispose();
  upstream = undefined;
  await close?.();
  close = undefined;
});

test.each([44_000, 60_000, 90_000, 150_000])(
  'a tree whose first %i simulated ms of deliveries found the relay down is relayed whole with no order finding',
  async (downMs) => {
    const port = await freePort();
    upstream = createMock({ clock: 'manual', webhookUrl: `http://127.0.0.1:${port}/hooks` });
    const created = mockParts(upstream).world.engine.createValidation({ organizationId: 'default', request: { tin: HAPPY_PARTNERS, country: 'CL' } });
    if (!created.ok) throw new Error(created.message);
    await upstream.advance(downMs);
    const missed = mockParts(upstream)
      .world.deliveries.list()
      .filter((record) => record.attempts.length > 0);
    expect(missed.length).toBeGreaterThan(0);
    expect(missed.every((record) => record.attempts[0]!.response_code === null)).toBe(true);

    const started = await startPlainRelay(port);
    close = started.close;
    await upstream.drain();
    const records = mockParts(upstream).world.deliveries.list();
    expect(records.every((record) => record.status === 'succeeded')).toBe(true);
    const relayed = await relayReport(started.relay);
    // Every event reached the receiver once, the missed ones by their retry, later than events that fired after them.
    expect(relayed.deliveries.map((delivery) => `${delivery.resource_id}${delivery.event_type}`).sort()).toEqual(
      records.map((record) => `${record.resource_id}${record.type}`).sort(),
    );
    expect(relayed.deliveries.every((delivery) => delivery.attempt === 1 && delivery.answer.status === 200)).toBe(true);
    expect(relayed.findings).toEqual([]);
  },
);
