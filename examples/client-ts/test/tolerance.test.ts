import 'bvs-mock/testing/jest';
import { SCENARIOS, startBvsMock, type RunningBvsMock } from 'bvs-mock/testing';
import { BvsClient } from '../src/bvs-client';
import { startReceiver } from '../src/webhook-receiver';

// bvs-mock's tolerance mode: payloads with fields and values the spec does not list. The receiver must
// acknowledge them and the tracker must still follow each tree (spec §2: field lists are not complete).

const SECRET = 'whsec_example_client';
let bvs: RunningBvsMock;
beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant', tolerance: true });
});
afterAll(() => bvs.stop());

test('every built-in scenario in tolerance mode: every delivery acknowledged, every payload valid, the trees followed', async () => {
  const receiver = await startReceiver({ secret: SECRET });
  try {
    await bvs.control.createEndpoint({ name: 'example', url: receiver.url, auth_type: 'secret', secret: SECRET });
    const client = new BvsClient({ baseUrl: bvs.url, clientId: bvs.oauthClient.clientId, clientSecret: bvs.oauthClient.clientSecret, fetch: bvs.fetch });
    for (const scenario of Object.values(SCENARIOS)) {
      const created = await client.createValidation({ tin: scenario.tin, country: scenario.country });
      if (scenario.name === 'missing-input-data') {
        await bvs.control.waitForEvent('data_source_run_batch.data_source_run.ready', { validationId: created.id });
        const waiting = (await client.getValidation(created.id)).data_source_run_batches[0]!.data_source_runs.find(
          (run) => run.status === 'missing_input_data',
        )!;
        await bvs.control.supplyInput(waiting.id);
      }
      await bvs.control.waitForSettled(created.id);
    }
    await receiver.idle();
    const records = await bvs.control.allEvents();
    expect(records.filter((record) => record.status !== 'succeeded')).toEqual([]);
    for (const record of records) expect(record.payload).toBeValidBvsEvent();
    const happy = records.find((record) => record.type === 'data_source_run_batch.child_batches_ready')!;
    const batchId = (happy.payload.data_source_run_batch as { id: string }).id;
    expect(receiver.tracker.get(batchId)).toMatchObject({ treeComplete: true });
  } finally {
    await receiver.close();
  }
});
