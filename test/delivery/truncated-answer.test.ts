import { defaultOrganizationWith, expectDeliveryRecord, startDeliveryHarness } from '../support/delivery-harness';
import { startRawTcpReceiver } from '../support/raw-tcp-receiver';

// Regression: a receiver whose head declared Content-Length: 1000 and that sent 7 bytes and closed was recorded as a
// succeeded delivery on its first attempt. A truncated answer is not an answer (spec §6 Subscription and delivery,
// rules 2 and 4): the attempt fails and the delivery is retried.

test('a 200 whose answer ends before its Content-Length is a failed attempt: retried, and never recorded as succeeded', async () => {
  const raw = await startRawTcpReceiver('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabcdefg');
  const harness = startDeliveryHarness({ config: defaultOrganizationWith([{ url: raw.url, subscribed_events: ['data_source_run_batch.ready'] }]) });
  try {
    harness.create('76354771-K');
    await harness.mock.drain();
    const [record] = harness.records();
    expectDeliveryRecord(record);
    expect(record!.status).toBe('failed');
    expect(record!.attempts).toHaveLength(21);
    for (const attempt of record!.attempts) {
      expect(attempt.response_code).toBe(200);
      expect(attempt.response_body).toBe('abcdefg');
      expect(attempt.error).toBe('answer_truncated: the answer ended after 7 of the 1000 bytes its Content-Length declared');
    }
    expect(raw.requests()).toBe(21);
  } finally {
    harness.mock.dispose();
    await raw.close();
  }
});
