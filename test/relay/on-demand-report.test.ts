import type { StartedServer } from '../../src/http';
import { callApi, createHappyPartners, relayReport, startPlainRelay, startUpstream } from '../support/relay-kit';

// A consolidated report the client asks for while the tree still runs (§4 Other operations; bvs-mock's
// POST /api/v2/data_source_run_batches/:id/consolidated_report): its consolidated_report_ready comes mid-tree.
// The upstream is a bvs-mock on 127.0.0.1 (manual clock) whose endpoint points at the relay.

let upstream: StartedServer | undefined;
let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
  await close?.();
  close = undefined;
});

const REPORT = 'data_source_run_batch.consolidated_report_ready';

test.each([35, 50])('a report asked for %i simulated seconds into a happy-partners tree is relayed with no order finding', async (askedAtSeconds) => {
  const relay = await startPlainRelay();
  close = relay.close;
  const started = await startUpstream(`${relay.relay.url}/hooks`);
  upstream = started.server;
  const { batch } = await createHappyPartners(started.server);
  await started.control.advance(askedAtSeconds);
  expect((await callApi(started.server, `/api/v2/data_source_run_batches/${batch}/consolidated_report`, 'POST')).status).toBe(202);
  expect((await started.control.run()).settled).toBe(true);

  const relayed = await relayReport(relay.relay);
  expect(relayed.findings).toEqual([]);
  const types = relayed.deliveries.map((delivery) => delivery.event_type);
  // The report asked for comes before the tree completes, the tree's own report at its end: two events, each a first attempt.
  expect(types.indexOf(REPORT)).toBeLessThan(types.indexOf('data_source_run_batch.child_batches_ready'));
  expect(types.at(-1)).toBe(REPORT);
  const reports = relayed.deliveries.filter((delivery) => delivery.event_type === REPORT);
  expect(reports.map((delivery) => [delivery.resource_id, delivery.attempt])).toEqual([
    [batch, 1],
    [batch, 1],
  ]);
});
