import { createMock, type Mock } from '../../src/http';
import { mockParts } from '../../src/mock/create-mock';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { relayReport, startPlainRelay } from './relay-test-kit';

// A consolidated report the client asks for while the tree still runs (§4 Other operations; bvs-mock's
// POST /api/v2/data_source_run_batches/:id/consolidated_report): its consolidated_report_ready comes mid-tree.

let upstream: Mock | undefined;
let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  upstream?.dispose();
  upstream = undefined;
  await close?.();
  close = undefined;
});

const REPORT = 'data_source_run_batch.consolidated_report_ready';

test.each([35_000, 50_000])('a report asked for %i simulated ms into a happy-partners tree is relayed with no order finding', async (askedAtMs) => {
  const started = await startPlainRelay();
  close = started.close;
  upstream = createMock({ clock: 'manual', webhookUrl: `${started.relay.url}/hooks` });
  const { engine } = mockParts(upstream).world;
  const created = engine.createValidation({ organizationId: 'default', request: { tin: HAPPY_PARTNERS, country: 'CL' } });
  if (!created.ok) throw new Error(created.message);
  await upstream.advance(askedAtMs);
  const batch = engine.getValidation('default', created.value.id)!.data_source_run_batches[0]!.id;
  expect(engine.generateConsolidatedReport('default', batch).ok).toBe(true);
  await upstream.drain();

  const relayed = await relayReport(started.relay);
  expect(relayed.findings).toEqual([]);
  const types = relayed.deliveries.map((delivery) => delivery.event_type);
  // The report asked for comes before the tree completes, the tree's own report at its end.
  expect(types.indexOf(REPORT)).toBeLessThan(types.indexOf('data_source_run_batch.child_batches_ready'));
  expect(types.at(-1)).toBe(REPORT);
  const reports = relayed.deliveries.filter((delivery) => delivery.event_type === REPORT);
  expect(reports.map((delivery) => [delivery.resource_id, delivery.attempt])).toEqual([
    [batch, 1],
    [batch, 1],
  ]);
});
