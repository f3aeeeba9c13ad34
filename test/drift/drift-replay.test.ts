import { driftOf, driftOutcome } from '../../src/drift/drift-run';
import type { ServerOptions } from '../../src/http';
import type { DriftReport, Recording } from '../../src/schemas';
import { SCENARIOS } from '../../src/testing';
import { recordPlay } from '../support/recording-rig';

// bvs-mock drift: recordings of an upstream bvs-mock played again in bvs-mock. An identical upstream shows no drift;
// an upstream that plays another reading, adds fields or sends events in another order or at other instants shows
// exactly that, each difference with its row of docs/fidelity.md.

const scenario = (name: string) => Object.values(SCENARIOS).find((candidate) => candidate.name === name)!;

/**
 * A run that fails for good has no timestamp of its end: its tree is recorded on a clock that runs at a steady pace (as
 * in the round trip), slow enough that a busy machine's late arrivals stay within a second of simulated time.
 */
const paced = (name: string): ServerOptions => (name === 'main-definitive-error' ? { clock: 'realtime', speed: 10 } : {});

async function record(name: string, upstream: ServerOptions = {}): Promise<Recording[]> {
  const { tin, country } = scenario(name);
  const recorded = await recordPlay({ tin, country, upstream: { ...paced(name), ...upstream } });
  return [recorded.proxy, recorded.listen];
}

const drift = (recordings: Recording[]) => driftOf(recordings, { files: ['proxy.json', 'listen.json'], toleranceMs: 2_000 });

/** The differences as `check subject path row reading`, to compare whole. */
const listed = (report: DriftReport) =>
  report.differences.map(
    (d) => `${d.check} ${d.subject}${d.path === null ? '' : ` ${d.path}`} row ${d.row}${d.reading === null ? '' : ` ${d.reading.name}=${d.reading.value}`}`,
  );

/** Built-in scenarios whose recordings do not play again yet (recording-round-trip.test.ts says why). */
const NOT_YET = new Set(['information-request', 'missing-input-data']);

test.each(
  Object.values(SCENARIOS)
    .filter((candidate) => !NOT_YET.has(candidate.name))
    .map((candidate) => [candidate.name]),
)('the recording of %s through an identical upstream shows no drift', async (name) => {
  const report = await drift(await record(name));
  expect(listed(report)).toEqual([]);
  expect(report.trees).toHaveLength(1);
  expect(report.trees[0]!.not_played).toBeNull();
  expect(report.trees[0]!.events_played).toBe(report.trees[0]!.events_recorded);
  expect(report.exchanges_checked).toBeGreaterThan(0);
  expect(driftOutcome(report)).toBe('none');
  // A main run that fails for good plays otherwise under the other reading of row 31: the recording confirms bvs-mock's.
  if (name === 'main-definitive-error') expect(report.confirmations.map((c) => `${c.row} ${c.choice}`)).toContain('31 ready-on-main-failure=sent');
});

test("an upstream that withholds a failed main batch's ready: the missing event refutes row 31 and names the reading withheld", async () => {
  const report = await drift(await record('main-definitive-error', { readings: { 'ready-on-main-failure': 'withheld' } }));
  expect(listed(report)).toEqual(['event data_source_run_batch.ready (76738244-8) row 31 ready-on-main-failure=withheld']);
  expect(report.differences[0]).toMatchObject({ verdict: 'refutes', bvs_mock: expect.stringMatching(/^sends it at \d+:\d\d/), recording: 'not sent' });
  expect(driftOutcome(report)).toBe('drift');
});

test('an upstream that sends no ready for a run that failed for good: row 23, reading withheld', async () => {
  const report = await drift(await record('partner-definitive-error', { readings: { 'run-ready-on-failure': 'withheld' } }));
  expect(listed(report).length).toBeGreaterThan(0);
  for (const difference of report.differences) expect(difference).toMatchObject({ row: 23, reading: { name: 'run-ready-on-failure', value: 'withheld' } });
});

test('an upstream whose child_batches_ready lists the seven fields alone: shape differences on row 21, reading listed', async () => {
  const report = await drift(await record('happy-partners', { readings: { 'child-batch-fields': 'listed' } }));
  expect(listed(report).length).toBeGreaterThan(0);
  for (const difference of report.differences)
    expect(difference).toMatchObject({
      check: 'shape',
      subject: 'data_source_run_batch.child_batches_ready',
      path: expect.stringMatching(/^\$\.data_source_run_batch\.child_batches\[\*\]\./),
      bvs_mock: 'sends this field',
      row: 21,
      reading: { name: 'child-batch-fields', value: 'listed' },
    });
});
