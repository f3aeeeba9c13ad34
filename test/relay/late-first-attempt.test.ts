import type { StartedServer } from '../../src/http';
import type { BvsMockControl } from '../../src/testing';
import { freePort } from '../support/free-port';
import { createHappyPartners, relayReport, startPlainRelay, startUpstream } from '../support/relay-kit';

// A relay that was down when a tree began (started late, or restarted): the upstream's first attempts of the tree's
// first events found nothing listening, and their retries arrive after events of the tree that fired later. The
// upstream is a bvs-mock on 127.0.0.1 (manual clock), its endpoint pointing at the relay's port before the relay listens.

let upstream: StartedServer | undefined;
let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
  await close?.();
  close = undefined;
});

/** Starts the tree with nothing listening at the relay's port for `downSeconds` simulated seconds, then the relay. */
async function treeWithRelayDown(downSeconds: number): Promise<{ control: BvsMockControl; id: string; relay: Awaited<ReturnType<typeof startPlainRelay>> }> {
  const port = await freePort();
  const started = await startUpstream(`http://127.0.0.1:${port}/hooks`);
  upstream = started.server;
  const { id } = await createHappyPartners(started.server);
  await started.control.advance(downSeconds);
  const missed = (await started.control.allEvents({ entity_validation_id: id })).filter((event) => event.attempts.length > 0);
  expect(missed.length).toBeGreaterThan(0);
  expect(missed.every((event) => event.attempts[0]!.response_code === null)).toBe(true);
  const relay = await startPlainRelay({ port });
  close = relay.close;
  return { control: started.control, id, relay };
}

test.each([44, 60, 90, 150])(
  'a tree whose first %i simulated seconds of deliveries found the relay down is relayed whole with no order finding',
  async (downSeconds) => {
    const { control, id, relay } = await treeWithRelayDown(downSeconds);
    expect((await control.run()).settled).toBe(true);
    const events = await control.allEvents({ entity_validation_id: id });
    expect(events.every((event) => event.status === 'succeeded')).toBe(true);
    const relayed = await relayReport(relay.relay);
    expect(relayed.findings).toEqual([]);
    // Every event reached the receiver once, the missed ones by a retry, later than events that fired after them.
    const key = (type: string | null, resource: string | null) => `${type} ${resource}`;
    expect(relayed.deliveries.map((delivery) => key(delivery.event_type, delivery.resource_id)).sort()).toEqual(
      events.map((event) => key(event.type, event.resource_id)).sort(),
    );
    expect(relayed.deliveries.every((delivery) => delivery.attempt === 1 && delivery.answer.status === 200)).toBe(true);
  },
);

test('in a tree the relay joined late, a child_batches_ready held back past the report is still reported', async () => {
  const port = await freePort();
  const started = await startUpstream(`http://127.0.0.1:${port}/hooks`);
  upstream = started.server;
  await started.control.addFault({ kind: 'delay_delivery', share: 1, seconds: 600, event_type: 'data_source_run_batch.child_batches_ready' });
  const { id } = await createHappyPartners(started.server);
  await started.control.advance(60);
  const relay = await startPlainRelay({ port });
  close = relay.close;
  expect((await started.control.run()).settled).toBe(true);
  const relayed = await relayReport(relay.relay);
  expect(relayed.deliveries.slice(-2).map((delivery) => delivery.event_type)).toEqual([
    'data_source_run_batch.consolidated_report_ready',
    'data_source_run_batch.child_batches_ready',
  ]);
  expect(relayed.findings.map((finding) => [finding.rule.split(':')[0], finding.message, finding.tree_id])).toEqual([
    ['§6 Event order, rule 3, and Payload rules, rule 5', 'consolidated_report_ready came before child_batches_ready', id],
  ]);
});
