import { EVENT_EXAMPLES } from '../../src/schemas';
import { relayReport, startPlainRelay } from '../support/relay-kit';

// An information request whose item's event reaches the relay before any event of the request itself: the relay named
// the tree after the request (irq_...), in its deliveries and findings, even once the request's own event told its
// validation; a later item's event too.

test("an item's event that came first belongs to its validation's tree once the request's own event names it", async () => {
  const { relay, close } = await startPlainRelay();
  try {
    const item = EVENT_EXAMPLES['information_request.requestable_item.extracted']();
    const request = EVENT_EXAMPLES['information_request.status_updated']();
    const requestId = request.information_request.id;
    const validationId = request.information_request.entity_validation_id;
    const itemOf = (id: string) => ({ ...item, requestable_item: { ...item.requestable_item, id, information_request_id: requestId } });
    const post = (body: unknown) =>
      fetch(`${relay.url}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(itemOf('rqi_01KF0HJ080AAAAAAAAAAAAAAAA'))).status).toBe(200);
    expect((await post(request)).status).toBe(200);
    expect((await post(itemOf('rqi_01KF0HJ080BBBBBBBBBBBBBBBB'))).status).toBe(200);
    const report = await relayReport(relay);
    expect(report.deliveries.map((delivery) => [delivery.event_type, delivery.tree_id])).toEqual([
      ['information_request.requestable_item.extracted', validationId],
      ['information_request.status_updated', validationId],
      ['information_request.requestable_item.extracted', validationId],
    ]);
  } finally {
    await close();
  }
});
