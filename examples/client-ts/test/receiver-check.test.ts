import { checkReceiver } from 'bvs-mock/testing';
import { startReceiver, type Receiver } from '../src/webhook-receiver';

// The receiver graded by bvs-mock's receiver check (what `bvs-mock check-receiver URL --auth secret:S` does):
// every event type acknowledged quickly, forged deliveries refused, duplicates and events out of order
// acknowledged, fields and values it does not know tolerated.

const SECRET = 'whsec_example_client';
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ secret: SECRET });
});
afterAll(() => receiver.close());

test("the example receiver passes every check of the spec's receiver rules", async () => {
  const report = await checkReceiver({ url: receiver.url, auth: { kind: 'secret', value: SECRET } });
  expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => `${result.check}: ${result.reason}`)).toEqual([]);
  expect(receiver.counts.refused).toBe(3);
});
