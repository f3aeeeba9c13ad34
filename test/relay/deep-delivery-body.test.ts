import type { RunningRelay } from '../../src/http/start-relay';
import { Recorder } from '../../src/proxy/recorder';
import type { WebhookReceiver } from '../../src/testing';
import { relayReport, startPlainRelay } from '../support/relay-kit';

// A delivery body nested 200,000 levels deep, posted to `bvs-mock listen`: before, it was kept as JSON, and from then
// on GET /_mock/relay answered 500 (its answer could not be written) and the recording could not be saved.

let receiver: WebhookReceiver;
let relay: RunningRelay;
let recorder: Recorder;
let close: () => Promise<void>;

beforeEach(async () => {
  recorder = new Recorder({ source: 'listen', peer: 'the receiver' });
  ({ relay, receiver, close } = await startPlainRelay({ onDelivery: (delivery) => recorder.addDelivery(delivery) }));
});
afterEach(() => close());

test('a delivery body nested deeper than any payload is relayed and kept as text with an envelope finding; the report and the recording still write', async () => {
  const depth = 200_000;
  const body = `{"type":"data_source_run_batch.ready","data_source_run_batch":${'{"a":'.repeat(depth)}1${'}'.repeat(depth + 1)}`;
  const answer = await fetch(`${relay.url}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  expect(answer.status).toBe(200);
  expect(receiver.received).toHaveLength(1);
  // relayReport checks the answer is 200 and reads as the report's schema.
  const report = await relayReport(relay);
  expect(report.findings.map((finding) => [finding.kind, finding.message.slice(0, 60)])).toEqual([
    ['envelope', expect.stringMatching(/^the body is not JSON: at \$\.data_source_run_batch\.a\.a/)],
  ]);
  expect(report.findings[0]!.message).toContain('nested more than 64 levels deep (objects and arrays), deeper than any payload of the service');
  expect(typeof report.deliveries[0]!.body).toBe('string');
  expect(JSON.stringify(recorder.recording()).length).toBeGreaterThan(depth);
});
