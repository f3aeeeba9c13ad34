import { createEventParser, readEvents, type ServerSentEvent } from '../../src/client';

// The one reader of server-sent events the dashboard, bvs-mock/testing and the test support share.

function parse(chunks: string[]): { events: ServerSentEvent[]; retries: number[] } {
  const events: ServerSentEvent[] = [];
  const retries: number[] = [];
  const parser = createEventParser({ onEvent: (event) => events.push(event), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.feed(chunk);
  return { events, retries };
}

test("bvs-mock's stream as it is written: retry, ready, a heartbeat comment, then a change with its id", () => {
  const stream =
    'retry: 3000\n\nevent: ready\ndata: {"now":"2026-01-15T10:00:00.000Z"}\n\n: heartbeat\n\nid: 7\nevent: change\ndata: {"id":7,"kinds":["emitted"]}\n\n';
  expect(parse([stream])).toEqual({
    retries: [3000],
    events: [
      { event: 'ready', data: '{"now":"2026-01-15T10:00:00.000Z"}' },
      { event: 'change', data: '{"id":7,"kinds":["emitted"]}', id: '7' },
    ],
  });
});

test('an event cut anywhere across chunks, even between CR and LF, is read once whole', () => {
  const stream = 'event: change\r\ndata: {"kinds":["clock"]}\r\n\r\nevent: change\rdata: a\rdata: b\r\r';
  for (let cut = 1; cut < stream.length; cut += 1) {
    expect(parse([stream.slice(0, cut), stream.slice(cut)]).events).toEqual([
      { event: 'change', data: '{"kinds":["clock"]}' },
      { event: 'change', data: 'a\nb' },
    ]);
  }
});

test('the standard\'s details: a leading BOM, "message" when no event is named, a field without a colon, an event without data is dropped', () => {
  expect(parse(['\ufeffdata\ndata:x\n\nevent: lonely\n\ndata:  two spaces\n\n']).events).toEqual([
    { event: 'message', data: '\nx' },
    { event: 'message', data: ' two spaces' },
  ]);
});

test('readEvents gives the events of a response body in order and ends with it', async () => {
  const body = new Response('event: ready\ndata: {}\n\nevent: change\ndata: {"kinds":["reset"]}\n\nevent: change\ndata: {"kin').body!;
  const seen: ServerSentEvent[] = [];
  for await (const event of readEvents(body)) seen.push(event);
  expect(seen.map((event) => event.event)).toEqual(['ready', 'change']);
});
