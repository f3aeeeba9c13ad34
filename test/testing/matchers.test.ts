import '../../src/testing/jest';
import { SCENARIOS, expectNoViolations, startBvsMock, startWebhookReceiver, type RunningBvsMock, type WebhookReceiver } from '../../src/testing';

// The assertions of bvs-mock/testing, registered on jest's expect by `bvs-mock/testing/jest`, against a real
// bvs-mock and a real receiver: a client test in a few lines, and failures that say what broke.

let bvs: RunningBvsMock;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  bvs = await startBvsMock({ clock: 'instant' });
});
afterAll(async () => {
  await bvs.stop();
  await receiver.close();
});
beforeEach(async () => {
  await bvs.control.reset();
  receiver.received.length = 0;
});

const create = (body: Record<string, unknown>) =>
  bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('a client test in a few lines: create, wait until settled, events valid and in the spec order, no violation', async () => {
  await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url });
  const { id } = (await (await create({ tin: SCENARIOS.happyPartners.tin, country: 'CL' })).json()) as { id: string };
  await bvs.control.waitForSettled(id);
  for (const webhook of receiver.received) expect(webhook).toBeValidBvsEvent();
  expect(receiver).toHaveReceivedInOrder([
    'data_source_run_batch.ready',
    'data_source_run_batch.child_batches_ready',
    'data_source_run_batch.consolidated_report_ready',
  ]);
  await expectNoViolations(bvs);
});

test('toBeValidBvsEvent fails with the JSON path of what is wrong', () => {
  expect(() => expect({ type: 'data_source_run_batch.ready', data_source_run_batch: { id: 'nope' } }).toBeValidBvsEvent()).toThrow(
    /\$\.data_source_run_batch\.id: /,
  );
  expect({ type: 'data_source_run_batch.ready' }).not.toBeValidBvsEvent();
});

test('toHaveReceivedInOrder fails naming the missing event and listing what arrived', () => {
  const webhooks = [{ type: 'data_source_run_batch.ready' }, { type: 'data_source_run_batch.consolidated_report_ready' }];
  expect(webhooks).toHaveReceivedInOrder(['data_source_run_batch.ready', 'data_source_run_batch.consolidated_report_ready']);
  expect(() => expect(webhooks).toHaveReceivedInOrder(['data_source_run_batch.consolidated_report_ready', 'data_source_run_batch.ready'])).toThrow(
    /"data_source_run_batch.ready" is missing after "data_source_run_batch.consolidated_report_ready"/,
  );
});

test('toSatisfyContract checks a body against a named schema of the contract', async () => {
  const answer = await create({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' });
  expect(await answer.json()).toSatisfyContract('EntityValidation');
  expect({ id: 1 }).not.toSatisfyContract('EntityValidation');
});

test('expectNoViolations fails with each violation: the request, its answer and the JSON path', async () => {
  await create({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL', nickname: 'x' });
  await bvs.fetch(`${bvs.url}/api/v2/webhook_endpoints`);
  await expect(expectNoViolations(bvs)).rejects.toThrow(
    /bvs-mock recorded 2 contract violations in 2 requests:\n {2}POST \/api\/v2\/entity_validations → 201 \(req_\d+\): \$\.nickname: "nickname" is not a known field here \[unknown_field\]\n {2}GET \/api\/v2\/webhook_endpoints → 401 \(req_\d+\): \$headers\["authorization"\]: .*\[unauthorized\]/,
  );
});
