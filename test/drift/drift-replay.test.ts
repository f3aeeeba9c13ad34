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
const paced = (name: string): ServerOptions => (PACED.has(name) ? { clock: 'realtime', speed: 10 } : {});
/** Trees that date an event by its arrival: a failed run's end (no timestamp of its own). */
const PACED = new Set(['main-definitive-error']);

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

// The recordings of every built-in scenario through an identical upstream show no drift: recording-round-trip.test.ts.

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

/** The JSON paths of a value's fields, every item of a list as `[*]`. */
function paths(value: unknown, path = '$', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) paths(item, `${path}[*]`, out);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) {
      out.add(`${path}.${key}`);
      paths(item, `${path}.${key}`, out);
    }
  return out;
}

test('a tolerant upstream: the fields it adds to payloads are the shape differences, each on row 89, and nothing else of the trees differs', async () => {
  const plain = await record('happy-partners');
  const tolerant = await record('happy-partners', { tolerance: true });
  // What tolerance planted: the fields of each event type the tolerant upstream sent and the plain one did not (topmost).
  const planted = new Set<string>();
  const fieldsOf = (recording: Recording, type: string) =>
    new Set(recording.deliveries.filter((delivery) => delivery.event_type === type).flatMap((delivery) => [...paths(delivery.body)]));
  for (const type of new Set(tolerant[1]!.deliveries.map((delivery) => delivery.event_type!))) {
    const theirs = fieldsOf(tolerant[1]!, type);
    const mine = fieldsOf(plain[1]!, type);
    const added = [...theirs].filter((path) => !mine.has(path));
    for (const path of added) if (!added.some((other) => path.startsWith(`${other}.`) || path.startsWith(`${other}[`))) planted.add(`${type} ${path}`);
  }
  expect(planted.size).toBeGreaterThan(0);
  const report = await drift(tolerant);
  const shapes = report.differences.filter((d) => d.check === 'shape');
  expect(new Set(shapes.map((d) => `${d.subject} ${d.path}`))).toEqual(planted);
  for (const d of shapes) expect(d).toMatchObject({ bvs_mock: 'does not send this field', recording: 'has it', verdict: 'refutes', reading: null });
  for (const d of shapes) expect([21, 22, 89]).toContain(d.row);
  // The rest: the API answers and payload values beyond the contract (the proxy's closed check), none about the tree's events.
  expect(report.differences.filter((d) => d.check !== 'shape' && d.check !== 'contract')).toEqual([]);
  expect(report.differences.some((d) => d.check === 'contract' && d.row === 89)).toBe(true);
});

/** A recording whose deliveries are edited as another service might have sent them. */
function edited(recordings: Recording[], edit: (deliveries: Recording['deliveries']) => void): Recording[] {
  const copy = structuredClone(recordings);
  edit(copy[1]!.deliveries);
  return copy;
}

test('a service that announces the stakeholders before the run that discovers them: an order difference on row 24', async () => {
  const recordings = await record('happy-partners');
  const crafted = edited(recordings, (deliveries) => {
    const stakeholders = deliveries.findIndex((delivery) => delivery.event_type === 'entity_validation.stakeholder.created');
    // The run that discovers the partners is announced right before them (row 24): the service sends them the other way round.
    [deliveries[stakeholders - 1], deliveries[stakeholders]] = [deliveries[stakeholders]!, deliveries[stakeholders - 1]!];
  });
  const report = await drift(crafted);
  const order = report.differences.filter((d) => d.check === 'order');
  expect(order.length).toBeGreaterThan(0);
  expect(order.map((d) => d.subject)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^(entity_validation\.stakeholder\.created|data_source_run_batch\.data_source_run\.ready) /)]),
  );
  expect(report.differences.filter((d) => d.check === 'event')).toEqual([]);
});

test('a service whose main batch is ready 30 s after its last run: a timing difference beyond the tolerance, with both offsets', async () => {
  const recordings = await record('happy-no-partners');
  const crafted = edited(recordings, (deliveries) => {
    for (const delivery of deliveries) {
      if (delivery.event_type !== 'data_source_run_batch.ready') continue;
      const batch = (delivery.body as { data_source_run_batch: { updated_at: string } }).data_source_run_batch;
      batch.updated_at = new Date(Date.parse(batch.updated_at) + 30_000).toISOString();
    }
  });
  const report = await drift(crafted);
  const timing = report.differences.filter((d) => d.check === 'timing' && d.subject.startsWith('data_source_run_batch.ready '));
  expect(timing).toHaveLength(1);
  expect(timing[0]!.recording).toMatch(/later by 0:30, beyond the tolerance of 0:02/);
});

test('a recording of the API alone cannot play its trees: the report says why, and the outcome is incomplete, not a pass', async () => {
  const [proxy] = await record('happy-partners');
  const report = await drift([proxy!]);
  expect(report.trees[0]!.not_played).toMatch(/no delivery of the tree was recorded: record its webhooks with bvs-mock listen --record/);
  expect(report.differences).toEqual([]);
  expect(driftOutcome(report)).toBe('incomplete');
});

test('a tree revalidated five minutes after its play: the second play is played again at the same offset, and row 33 is confirmed', async () => {
  const { tin, country } = scenario('happy-partners');
  const recorded = await recordPlay({ tin, country, revalidateAfterMs: 300_000 });
  const report = await drift([recorded.proxy, recorded.listen]);
  expect(listed(report)).toEqual([]);
  expect(report.trees[0]!.events_played).toBe(recorded.emitted.length);
  expect(report.confirmations.map((c) => `${c.row} ${c.choice}`)).toContain('33 child-batches-on-revalidation=once');
});

test('an upstream that sends child_batches_ready again on a revalidation: the extra event refutes row 33, reading again', async () => {
  const { tin, country } = scenario('happy-partners');
  const recorded = await recordPlay({ tin, country, revalidateAfterMs: 300_000, upstream: { readings: { 'child-batches-on-revalidation': 'again' } } });
  const report = await drift([recorded.proxy, recorded.listen]);
  expect(listed(report)).toEqual(['event data_source_run_batch.child_batches_ready (76920415-6) row 33 child-batches-on-revalidation=again']);
  expect(report.differences[0]).toMatchObject({ bvs_mock: 'does not send it', recording: expect.stringMatching(/^sent at \d+:\d\d/) });
});

test('a token asked for with HTTP Basic alone: given by the upstream, row 69 is confirmed; refused with invalid_client, it is refuted, reading form-only', async () => {
  const { tin, country } = scenario('happy-no-partners');
  const given = await recordPlay({ tin, country, clientAuth: 'oauth-basic' });
  const confirmed = await drift([given.proxy, given.listen]);
  expect(listed(confirmed)).toEqual([]);
  expect(confirmed.confirmations).toContainEqual(expect.objectContaining({ tree_id: null, row: 69, choice: 'token-client-auth=form-or-basic' }));
  // The recording keeps the header's scheme alone, which is how drift knows the client used Basic.
  expect(given.proxy.exchanges[0]!.request_headers.authorization).toBe('Basic (masked)');
  const refused = structuredClone(given.proxy);
  refused.exchanges[0]!.status = 401;
  refused.exchanges[0]!.answer_body = JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' });
  const report = await drift([refused, given.listen]);
  expect(report.differences.filter((d) => d.row === 69)).toEqual([
    expect.objectContaining({
      check: 'contract',
      subject: 'createOAuthToken with HTTP Basic alone',
      bvs_mock: 'answers 200 with a token',
      recording: expect.stringMatching(/^answered 401 invalid_client \(\w+\)$/),
      reading: { name: 'token-client-auth', value: 'form-only' },
    }),
  ]);
});
