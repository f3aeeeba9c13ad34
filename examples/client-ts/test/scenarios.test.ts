import 'bvs-mock/testing/jest';
import { SCENARIOS, expectNoViolations, startBvsMock, type RunningBvsMock } from 'bvs-mock/testing';
import { BvsClient } from '../src/bvs-client';
import { startReceiver, type Receiver } from '../src/webhook-receiver';

// The client and its receiver against bvs-mock, one test per built-in scenario: what each scenario sends
// arrives, is verified, deduplicated, correlated by batch id, and only final results are used.

const SECRET = 'whsec_example_client';
let bvs: RunningBvsMock;
let receiver: Receiver;
let client: BvsClient;

beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant' });
});
afterAll(() => bvs.stop());

beforeEach(async () => {
  await bvs.control.reset();
  receiver = await startReceiver({ secret: SECRET });
  await bvs.control.createEndpoint({ name: 'example', url: receiver.url, auth_type: 'secret', secret: SECRET });
  client = new BvsClient({ baseUrl: bvs.url, clientId: bvs.oauthClient.clientId, clientSecret: bvs.oauthClient.clientSecret, fetch: bvs.fetch });
});
afterEach(() => receiver.close());

/** Creates a validation, waits until its tree and deliveries are done and every event is processed. */
async function play(tin: string, country: string, extra: { information_request?: { template_id: string } } = {}) {
  const created = await client.createValidation({ tin, country, ...extra });
  const events = await bvs.control.waitForSettled(created.id);
  await receiver.idle();
  const main = created.data_source_run_batches[0]!.id;
  return { created, events, main, tree: receiver.tracker.get(main) };
}

/** Every delivery was acknowledged at once, none refused, and every payload is valid. */
async function expectCleanDeliveries() {
  const records = await bvs.control.allEvents();
  expect(records.length).toBeGreaterThan(0);
  expect(records.filter((record) => record.status !== 'succeeded')).toEqual([]);
  for (const record of records) expect(record.payload).toBeValidBvsEvent();
  expect(receiver.counts.refused).toBe(0);
  await expectNoViolations(bvs);
}

test('happy-no-partners: ready, child_batches_ready without partners, the report PDF downloads', async () => {
  const { tree } = await play(SCENARIOS.happyNoPartners.tin, SCENARIOS.happyNoPartners.country);
  expect(tree).toMatchObject({ ready: true, runsSucceeded: true, treeComplete: true });
  const pdf = await client.download(tree!.reportUrl!);
  expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  await expectCleanDeliveries();
});

test('happy-partners: partners discovered, their alerts final once their runs succeed, records readable', async () => {
  const { created, main, tree } = await play(SCENARIOS.happyPartners.tin, SCENARIOS.happyPartners.country);
  expect(tree!.partners.size).toBe(3);
  expect([...tree!.partners.values()].every((partner) => partner.runsSucceeded)).toBe(true);
  expect(receiver.tracker.finalAlerts(main).length).toBeGreaterThan(0);
  const validation = await client.getValidation(created.id);
  const run = validation.data_source_run_batches[0]!.data_source_runs[0]!;
  expect((await client.records(run.id)).data_source_run_id).toBe(run.id);
  await expectCleanDeliveries();
});

test('partner-temporary-error: the retried partner run completes the tree', async () => {
  const { tree } = await play(SCENARIOS.partnerTemporaryError.tin, SCENARIOS.partnerTemporaryError.country);
  expect(tree).toMatchObject({ ready: true, treeComplete: true });
  expect(tree!.reportUrl).not.toBeNull();
  await expectCleanDeliveries();
});

test('partner-definitive-error: no child_batches_ready and no report; the failed partner is never final', async () => {
  const { main, tree } = await play(SCENARIOS.partnerDefinitiveError.tin, SCENARIOS.partnerDefinitiveError.country);
  expect(tree).toMatchObject({ ready: true, treeComplete: false, reportUrl: null });
  expect(receiver.tracker.seen.get('data_source_run_batch.child_batches_ready')).toBeUndefined();
  const partial = [...tree!.partners.values()].filter((partner) => !partner.runsSucceeded);
  expect(partial.length).toBeGreaterThan(0);
  for (const partner of partial) for (const alert of partner.alerts) expect(receiver.tracker.finalAlerts(main)).not.toContainEqual(alert);
  await expectCleanDeliveries();
});

test('main-definitive-error: ready with runs_succeeded false, so no result is used', async () => {
  const { main, tree } = await play(SCENARIOS.mainDefinitiveError.tin, SCENARIOS.mainDefinitiveError.country);
  expect(tree).toMatchObject({ ready: true, runsSucceeded: false });
  expect(receiver.tracker.finalAlerts(main)).toEqual([]);
  await expectCleanDeliveries();
});

test('missing-input-data: the tree waits until the input is supplied, then completes', async () => {
  const created = await client.createValidation({ tin: SCENARIOS.missingInputData.tin, country: SCENARIOS.missingInputData.country });
  await bvs.control.waitForEvent('data_source_run_batch.data_source_run.ready', { validationId: created.id });
  const waiting = (await client.getValidation(created.id)).data_source_run_batches[0]!.data_source_runs.find((run) => run.status === 'missing_input_data');
  expect(waiting).toBeDefined();
  await bvs.control.supplyInput(waiting!.id);
  await bvs.control.waitForSettled(created.id);
  await receiver.idle();
  expect(receiver.tracker.get(created.data_source_run_batches[0]!.id)).toMatchObject({ ready: true, treeComplete: true });
  await expectCleanDeliveries();
});

test('cl-formation: formation.ready arrives with the stakeholders', async () => {
  await play(SCENARIOS.clFormation.tin, SCENARIOS.clFormation.country);
  expect(receiver.tracker.seen.get('entity_validation.formation.ready')).toBe(1);
  expect(receiver.tracker.seen.get('entity_validation.stakeholder.created')).toBeGreaterThan(0);
  await expectCleanDeliveries();
});

test('information-request: the scenario plays the recipient and reviewers, and every information request event arrives', async () => {
  await play(SCENARIOS.informationRequest.tin, SCENARIOS.informationRequest.country);
  for (const type of ['information_request.all_items_collected', 'information_request.analysis_success', 'information_request.evaluated']) {
    expect(receiver.tracker.seen.get(type)).toBeGreaterThan(0);
  }
  await expectCleanDeliveries();
});

test('an information request driven by the test: the control API acts as recipient and reviewers, in the order the request allows', async () => {
  const { created } = await play(SCENARIOS.happyNoPartners.tin, SCENARIOS.happyNoPartners.country, { information_request: { template_id: 'irt_example' } });
  const requestId = created.information_requests[0]!.id;
  await bvs.control.informationRequest.submit(requestId);
  await bvs.control.informationRequest.analyze(requestId, { information_sheet: { reviewed: true } });
  await bvs.control.informationRequest.assign(requestId, { reviewer_email: 'reviewer@example.com', role: 'responsible' });
  await bvs.control.informationRequest.completeAssignment(requestId, 'reviewer@example.com');
  expect((await bvs.control.informationRequest.evaluate(requestId, 'Approved.')).status).toBe('evaluated');
  await bvs.control.waitForEvent('information_request.evaluated', { validationId: created.id });
  await bvs.control.waitForSettled(created.id);
  await receiver.idle();
  expect(receiver.tracker.seen.get('information_request.evaluated')).toBe(1);
  await expectCleanDeliveries();
});

test('large-tree: 50 partners correlated into one tree', async () => {
  const { tree } = await play(SCENARIOS.largeTree.tin, SCENARIOS.largeTree.country);
  expect(tree!.partners.size).toBe(50);
  expect(tree!.treeComplete).toBe(true);
  await expectCleanDeliveries();
});

test('legacy-webhook: with endpoints configured, the scenario plays as a plain happy tree', async () => {
  const { tree } = await play(SCENARIOS.legacyWebhook.tin, SCENARIOS.legacyWebhook.country);
  expect(tree).toMatchObject({ ready: true, treeComplete: true });
  await expectCleanDeliveries();
});
