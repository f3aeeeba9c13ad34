import { checkReceiver } from 'bvs-mock/testing';
import { startReceiver, type Receiver } from '../src/webhook-receiver';

// The receiver graded by bvs-mock's receiver check (what `bvs-mock check-receiver URL --auth secret:S --observe URL`
// does): every event type acknowledged quickly, forged deliveries refused and never processed, a duplicate and a
// redelivery processed once, events out of order each processed once, fields and values it does not know tolerated.
// Its test build serves the side-effect probe the processed:* checks read (GET /bvs-test/processed).

const SECRET = 'whsec_example_client';
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver({ secret: SECRET, observe: true });
});
afterAll(() => receiver.close());

test("the example receiver passes every check of the spec's receiver rules, with its side-effect probe", async () => {
  const report = await checkReceiver({ url: receiver.url, auth: { kind: 'secret', value: SECRET }, observe: receiver.observeUrl });
  expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => `${result.check}: ${result.reason}`)).toEqual([]);
  expect(report.outcome).toBe('pass');
  expect(report.results.map((result) => result.check)).toEqual(expect.arrayContaining(['processed:duplicate-once', 'processed:forged-ignored']));
  // The three refuse:* checks and the three forged deliveries of processed:forged-ignored.
  expect(receiver.counts.refused).toBe(6);
});
