import type { EngineEvent } from '../../src/engine';
import { parseWith, WebhookEventBody, type DataSourceRunBatch } from '../../src/schemas';
import { systemTime } from '../../src/wall';
import { createWorld, type World } from '../../src/world/world';
import { HAPPY_PARTNERS, PARTNER_DEFINITIVE_ERROR } from '../support/built-in-tins';

// The readings of a tree's play (src/schemas/readings.ts), each value played:
// - child-batches-on-main-failure (docs/fidelity.md row 32): `suppressed` (default) sends neither child_batches_ready
//   nor the automatic report once any run of the tree failed for good; `sent` lets only a partner's failure suppress
//   them (§6 rule 4, §7 Errors 5), so a main failure alone ends with both.
// - child-batches-on-revalidation (row 33): `once` (default) sends child_batches_ready on the first play only
//   (§6 rule 4: "exactly once per validation"); `again` sends it on each play, before that play's report (§6 rule 5).
// - run-ready-on-failure (row 23): `sent` (default) announces every run that ended, definitive_error included (§6
//   Triggers: "one event per run"); `withheld` announces only the runs that succeeded (§3: "completed successfully").
// - child-batch-fields (row 21): `whole` (default) sends each child of child_batches_ready as a whole batch (§2: "same
//   shape as a batch"); `listed` sends the seven fields §6 rule 4 lists, and nothing else.

const worlds: World[] = [];
afterEach(() => {
  for (const world of worlds.splice(0)) world.dispose();
});

function world(readings: Record<string, string> = {}): World {
  const made = createWorld({
    seed: 7,
    clock: 'manual',
    startTime: '2026-01-15T10:00:00Z',
    wallClock: systemTime,
    maxStreamReaders: 4,
    origin: 'tree-readings-test',
    logError: () => undefined,
    readings,
  });
  worlds.push(made);
  return made;
}

/** A world whose emitted events are collected, and a function that creates a validation and plays it to its end. */
function played(readings: Record<string, string> = {}): {
  target: World;
  events: EngineEvent[];
  create: (request: { tin?: string; scenarioName?: string }) => Promise<string>;
} {
  const target = world(readings);
  const events: EngineEvent[] = [];
  target.engine.subscribe((event) => events.push(event));
  const create = async (request: { tin?: string; scenarioName?: string }) => {
    const created = target.engine.createValidation({
      organizationId: target.registry.defaultId,
      request: { tin: request.tin ?? '11111111-1', country: 'CL' },
      scenarioName: request.scenarioName,
    });
    if (!created.ok) throw new Error(created.message);
    await target.drain();
    return created.value.id;
  };
  return { target, events, create };
}

const types = (events: readonly EngineEvent[]) => events.map((event) => event.type);
const batchOf = (event: EngineEvent) => (event.body as { data_source_run_batch: DataSourceRunBatch }).data_source_run_batch;
const TAIL = ['data_source_run_batch.child_batches_ready', 'data_source_run_batch.consolidated_report_ready'];

describe('child-batches-on-main-failure', () => {
  test('main-definitive-error: suppressed (the default) ends with the partner run; sent adds child_batches_ready then the report, the main batch with runs_succeeded false', async () => {
    const suppressed = played();
    await suppressed.create({ scenarioName: 'main-definitive-error' });
    const explicit = played({ 'child-batches-on-main-failure': 'suppressed' });
    await explicit.create({ scenarioName: 'main-definitive-error' });
    const sent = played({ 'child-batches-on-main-failure': 'sent' });
    await sent.create({ scenarioName: 'main-definitive-error' });

    expect(types(explicit.events)).toEqual(types(suppressed.events));
    expect(types(suppressed.events)).not.toContain(TAIL[0]);
    expect(types(suppressed.events)).not.toContain(TAIL[1]);
    // The one difference: the two events of the tree's end, after everything suppressed sends.
    expect(types(sent.events)).toEqual([...types(suppressed.events), ...TAIL]);
    const [childBatchesReady, report] = sent.events.slice(-2).map(batchOf);
    expect(childBatchesReady).toMatchObject({
      runs_succeeded: false,
      parent_batch_id: null,
      child_batches: [expect.objectContaining({ runs_succeeded: true })],
    });
    expect(report).toMatchObject({ id: childBatchesReady!.id, runs_succeeded: false, consolidated_report_url: expect.stringMatching(/^https:/) });
  });

  test("a partner's failure still suppresses both under sent: partner-definitive-error plays the same under either value", async () => {
    const suppressed = played();
    await suppressed.create({ tin: PARTNER_DEFINITIVE_ERROR });
    const sent = played({ 'child-batches-on-main-failure': 'sent' });
    await sent.create({ tin: PARTNER_DEFINITIVE_ERROR });
    expect(types(sent.events)).toEqual(types(suppressed.events));
    expect(types(sent.events)).not.toContain(TAIL[0]);
    expect(types(sent.events)).not.toContain(TAIL[1]);
  });

  test('with ready-on-main-failure=withheld, sent ends the tree with child_batches_ready and the report and no ready before them', async () => {
    const both = played({ 'ready-on-main-failure': 'withheld', 'child-batches-on-main-failure': 'sent' });
    await both.create({ scenarioName: 'main-definitive-error' });
    const sentAlone = played({ 'child-batches-on-main-failure': 'sent' });
    await sentAlone.create({ scenarioName: 'main-definitive-error' });
    expect(types(both.events)).toEqual(types(sentAlone.events).filter((type) => type !== 'data_source_run_batch.ready'));
    expect(types(both.events).slice(-2)).toEqual(TAIL);
  });
});

describe('run-ready-on-failure', () => {
  test.each([
    { scenario: 'main-definitive-error', failing: 'the main entity' },
    { scenario: 'partner-definitive-error', failing: 'a partner' },
  ])('$scenario: sent (the default) announces the run of $failing that failed for good; withheld every other event and not that one', async ({ scenario }) => {
    const sent = played();
    await sent.create({ scenarioName: scenario });
    const explicit = played({ 'run-ready-on-failure': 'sent' });
    await explicit.create({ scenarioName: scenario });
    const withheld = played({ 'run-ready-on-failure': 'withheld' });
    await withheld.create({ scenarioName: scenario });
    expect(types(explicit.events)).toEqual(types(sent.events));

    const runStatus = (event: EngineEvent) => (event.body as { data_source_run: { status: string } }).data_source_run.status;
    const runEvents = (events: EngineEvent[]) => events.filter((event) => event.type === 'data_source_run_batch.data_source_run.ready');
    const failedAt = sent.events.findIndex((event) => event.type === 'data_source_run_batch.data_source_run.ready' && runStatus(event) === 'definitive_error');
    expect(failedAt).toBeGreaterThanOrEqual(0);
    expect(runEvents(sent.events).filter((event) => runStatus(event) === 'definitive_error')).toHaveLength(1);
    // The one difference: the failed run's event.
    expect(types(withheld.events)).toEqual(types(sent.events).filter((_, at) => at !== failedAt));
    expect(runEvents(withheld.events).map(runStatus)).toEqual(runEvents(withheld.events).map(() => 'succeeded'));
  });
});

describe('child-batch-fields', () => {
  test('whole (the default) sends whole batches as children of child_batches_ready; listed the seven fields of §6 rule 4, there alone', async () => {
    const whole = played();
    await whole.create({ tin: HAPPY_PARTNERS });
    const listed = played({ 'child-batch-fields': 'listed' });
    await listed.create({ tin: HAPPY_PARTNERS });
    expect(types(listed.events)).toEqual(types(whole.events));

    const childrenOf = (events: EngineEvent[], type: string) => batchOf(events.find((event) => event.type === type)!).child_batches;
    const LISTED = ['id', 'runs_succeeded', 'entity_validation_id', 'tin', 'parent_batch_id', 'execution_type', 'raised_alerts'];
    const wholeChildren = childrenOf(whole.events, TAIL[0]!);
    const listedChildren = childrenOf(listed.events, TAIL[0]!);
    expect(wholeChildren.length).toBeGreaterThan(1);
    for (const child of wholeChildren)
      expect(Object.keys(child)).toEqual(expect.arrayContaining([...LISTED, 'data_source_runs', 'child_batches', 'created_at']));
    expect(listedChildren.map((child) => Object.keys(child))).toEqual(listedChildren.map(() => LISTED));
    expect(listedChildren).toEqual(wholeChildren.map((child) => Object.fromEntries(LISTED.map((field) => [field, child[field as keyof DataSourceRunBatch]]))));
    // Both payloads are what the document allows (the children's other fields are optional there), and the other
    // batch events keep whole children.
    for (const played of [whole, listed]) for (const event of played.events) expect(parseWith(WebhookEventBody, event.body)).toMatchObject({ ok: true });
    for (const type of ['data_source_run_batch.ready', TAIL[1]!]) {
      expect(childrenOf(listed.events, type).map((child) => Object.keys(child))).toEqual(childrenOf(whole.events, type).map((child) => Object.keys(child)));
    }
  });
});

describe('child-batches-on-revalidation', () => {
  /** Creates a happy-partners validation, plays it, revalidates it and plays again; answers the events of each play. */
  async function twoPlays(readings: Record<string, string>): Promise<{ first: EngineEvent[]; second: EngineEvent[]; mainBatchIds: string[] }> {
    const { target, events, create } = played(readings);
    const id = await create({ tin: HAPPY_PARTNERS });
    const firstCount = events.length;
    const revalidated = target.engine.revalidate(target.registry.defaultId, id);
    if (!revalidated.ok) throw new Error(revalidated.message);
    await target.drain();
    const mainBatchIds = revalidated.value.data_source_run_batches.map((batch) => batch.id);
    return { first: events.slice(0, firstCount), second: events.slice(firstCount), mainBatchIds };
  }

  test('once (the default) sends child_batches_ready on the first play only; again sends it on the revalidation too, before its report, with the new main batch', async () => {
    const once = await twoPlays({});
    const explicit = await twoPlays({ 'child-batches-on-revalidation': 'once' });
    const again = await twoPlays({ 'child-batches-on-revalidation': 'again' });
    expect(types(explicit.second)).toEqual(types(once.second));

    for (const plays of [once, again]) expect(types(plays.first).slice(-2)).toEqual(TAIL);
    expect(types(again.first)).toEqual(types(once.first));
    expect(types(once.second)).not.toContain(TAIL[0]);
    expect(types(once.second).at(-1)).toBe(TAIL[1]);
    // The one difference: child_batches_ready right before the revalidation's report.
    expect(types(again.second)).toEqual([...types(once.second).slice(0, -1), ...TAIL]);

    const [, newMain] = again.mainBatchIds;
    const [childBatchesReady, report] = again.second.slice(-2).map(batchOf);
    expect(childBatchesReady!.id).toBe(newMain);
    expect(report!.id).toBe(newMain);
    expect(childBatchesReady!.child_batches.length).toBeGreaterThan(0);
    for (const child of childBatchesReady!.child_batches) expect(child).toMatchObject({ parent_batch_id: newMain, execution_type: 'related' });
    // The first play's child batches are not the revalidation's.
    const firstChildren = batchOf(again.first.at(-2)!).child_batches.map((child) => child.id);
    expect(childBatchesReady!.child_batches.map((child) => child.id)).not.toEqual(expect.arrayContaining(firstChildren));
  });
});
