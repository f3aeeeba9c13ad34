import { SCENARIOS, startBvsMock, type RunningBvsMock } from 'bvs-mock/testing';
import { BvsClient } from '../src/bvs-client';
import { startReceiver, type Receiver } from '../src/webhook-receiver';

// What this client relies on of bvs-mock's choices where the spec is silent or unsure: the contract report's
// relied_on, each choice with its docs/fidelity.md row. A team reads it to know what to confirm with the real
// service before going live (here: the statuses it reads, the payloads it parses, the failed main ready it handles).

const SECRET = 'whsec_example_client';
let bvs: RunningBvsMock;
let receiver: Receiver;
let client: BvsClient;

beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant' });
  receiver = await startReceiver({ secret: SECRET });
  await bvs.control.createEndpoint({ name: 'example', url: receiver.url, auth_type: 'secret', secret: SECRET });
  client = new BvsClient({ baseUrl: bvs.url, clientId: bvs.oauthClient.clientId, clientSecret: bvs.oauthClient.clientSecret, fetch: bvs.fetch });
});
afterAll(async () => {
  await receiver.close();
  await bvs.stop();
});

test("the client's run lists every choice of bvs-mock it relied on, each with its fidelity row", async () => {
  // The flows of test/scenarios.test.ts in one run: partners and their records, a failed main entity, a run
  // waiting for input, a partner's temporary error, an information request driven through its statuses.
  const partners = await client.createValidation({ tin: SCENARIOS.happyPartners.tin, country: SCENARIOS.happyPartners.country });
  await bvs.control.waitForSettled(partners.id);
  const run = (await client.getValidation(partners.id)).data_source_run_batches[0]!.data_source_runs[0]!;
  await client.records(run.id);
  for (const scenario of [SCENARIOS.mainDefinitiveError, SCENARIOS.partnerTemporaryError]) {
    await bvs.control.waitForSettled((await client.createValidation({ tin: scenario.tin, country: scenario.country })).id);
  }
  const waiting = await client.createValidation({ tin: SCENARIOS.missingInputData.tin, country: SCENARIOS.missingInputData.country });
  await bvs.control.waitForEvent('data_source_run_batch.data_source_run.ready', { validationId: waiting.id });
  const input = (await client.getValidation(waiting.id)).data_source_run_batches[0]!.data_source_runs.find((item) => item.status === 'missing_input_data');
  await bvs.control.supplyInput(input!.id);
  await bvs.control.waitForSettled(waiting.id);
  const withRequest = await client.createValidation({
    tin: SCENARIOS.happyNoPartners.tin,
    country: SCENARIOS.happyNoPartners.country,
    information_request: { template_id: 'irt_example' },
  });
  const requestId = withRequest.information_requests[0]!.id;
  await bvs.control.informationRequest.submit(requestId);
  await bvs.control.informationRequest.analyze(requestId, { information_sheet: { reviewed: true } });
  await bvs.control.informationRequest.assign(requestId, { reviewer_email: 'reviewer@example.com', role: 'responsible' });
  await bvs.control.informationRequest.completeAssignment(requestId, 'reviewer@example.com');
  await bvs.control.informationRequest.evaluate(requestId, 'Approved.');
  await bvs.control.waitForSettled(withRequest.id);
  await receiver.idle();

  const { relied_on: reliedOn } = await bvs.control.report();
  const rows = [...new Set(reliedOn.map((item) => item.row))];
  // 13: information request statuses the spec never shows; 14: run statuses' transitions; 17: the records answer;
  // 19: a token without `scope` gets every configured scope; 21, 22, 24, 42, 71: payloads and order of events
  // the spec does not show; 23, 31: a failed run's data_source_run.ready and the main batch's ready with
  // runs_succeeded false (reading ready-on-main-failure); 46: a create answers 201.
  expect(rows).toEqual(expect.arrayContaining([13, 14, 17, 19, 21, 22, 23, 24, 31, 42, 46, 71]));
  expect(reliedOn.find((item) => item.row === 31)!.choice).toContain('ready-on-main-failure');
  expect(reliedOn.find((item) => item.row === 13 && item.choice.includes('`evaluated`'))!.seen.first).toMatchObject({ resource_id: requestId });
  // The client calls no path of bvs-mock's choosing (row 18): all it uses, the real service has.
  expect(rows).not.toContain(18);
  // Every entry names its row and where it was first seen: a request, or an event delivered to the receiver.
  for (const item of reliedOn) expect(item.seen.first.request_id ?? item.seen.first.delivery_id).toMatch(/^(req|evt)_/);
});
