import { mockParts } from '../../src/mock/create-mock';
import { CHANGE_NOTICE_MS } from '../../src/world/change-feed';
import { connectBvsMock, type ChangeNotice } from '../../src/testing';
import { startTestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';
import { openEventStream } from '../support/event-stream';

// GET /_mock/stream, the dashboard's live updates: small notices of change, nothing buffered, and nothing
// left behind by a tab that closes, a reset, or a server that stops while pages are open.

test('sends ready, then one change notice per burst of events, naming what changed', async () => {
  const t = await startTestServer();
  try {
    const stream = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await stream.waitFor(/event: ready/);
    await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
    await t.runClock();
    await stream.waitFor(/event: change\ndata: \{[^\n]*"emitted"/);
    const notices = stream.events().filter((event) => event.event === 'change');
    expect(stream.events()[0]!.event).toBe('ready');
    expect(notices.map((notice) => (JSON.parse(notice.data) as ChangeNotice).kinds).flat()).toContain('emitted');
    // A tree of events played in one run costs a few notices, not one per event.
    expect(notices.length).toBeLessThan(6);
    stream.close();
  } finally {
    await t.close();
  }
});

test('lets go of a stream whose client hangs up, across many tabs opened and closed', async () => {
  const t = await startTestServer();
  try {
    const streams = await Promise.all(Array.from({ length: 40 }, () => openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate })));
    expect(mockParts(t.server).world.changes.size).toBe(40);
    for (const stream of streams) stream.close();
    await waitUntil(() => mockParts(t.server).world.changes.size === 0);
    expect(mockParts(t.server).world.changes.size).toBe(0);
  } finally {
    await t.close();
  }
});

test('stays open past every connection timeout, which are for silent clients, not for a stream that is written to', async () => {
  const t = await startTestServer({ timeouts: { idleMs: 300, headersMs: 300, requestMs: 300, keepAliveMs: 300 } });
  try {
    const stream = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await t.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
    await stream.waitFor(/"reset"/);
    stream.close();
  } finally {
    await t.close();
  }
});

test('tells open streams of a reset, which it never waits for', async () => {
  const t = await startTestServer();
  try {
    const stream = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate });
    // A reset that waited for the open stream would never answer: jest's timeout is the failure.
    expect((await t.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
    await stream.waitFor(/"kinds":\[[^\]]*"reset"/);
    stream.close();
  } finally {
    await t.close();
  }
});

test('ends open streams when the server stops, without holding the stop', async () => {
  const t = await startTestServer();
  const stream = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate });
  // A stop held by the open stream would never end: jest's timeout is the failure.
  await t.close();
  await stream.ended;
  expect(mockParts(t.server).world.changes.size).toBe(0);
});

test('is locked like the rest of the control API under --control-token', async () => {
  const t = await startTestServer({ controlToken: 'stream_token' });
  try {
    expect((await t.call('/_mock/stream')).status).toBe(401);
    const stream = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate, headers: { authorization: 'Bearer stream_token' } });
    expect(stream.status).toBe(200);
    stream.close();
    // The page and its assets stay open: it asks for the token itself.
    const page = await t.call('/_mock/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const script = /src="(\/_mock\/assets\/[^"]+\.js)"/.exec(page.text())![1]!;
    const asset = await t.call(script);
    expect([asset.status, asset.headers['content-type'], asset.headers['cache-control']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    expect((await t.call('/_mock/assets/..%2Fpackage.json')).status).toBe(404);
    expect((await t.call('/_mock')).headers.location).toBe('/_mock/');
  } finally {
    await t.close();
  }
});

test('sends no change notice for a refused call: 401 without the token, 404, 405, 422 and a refused API create', async () => {
  const t = await startTestServer({ controlToken: 'stream_token' });
  try {
    const token = { authorization: 'Bearer stream_token' };
    const stream = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate, headers: token });
    await stream.waitFor(/event: ready/);
    const refusals = [
      await t.call('/_mock/reset', { method: 'POST' }),
      await t.call('/_mock/reset', { method: 'POST' }),
      await t.call('/_mock/reset', { method: 'POST' }),
      await t.call('/_mock/no-such-thing', { method: 'POST', headers: token }),
      await t.call('/_mock/clock', { method: 'DELETE', headers: token }),
      await t.json('POST', '/_mock/clock/advance', { seconds: -1 }, token),
      await t.json('POST', '/api/v2/entity_validations', { country: 'CL' }, { authorization: 'Bearer test_key_default' }),
    ];
    expect(refusals.map((answer) => answer.status)).toEqual([401, 401, 401, 404, 405, 422, 422]);
    // Well past the gathering window: a notice for any of them would have gone out by now.
    await new Promise((resolve) => setTimeout(resolve, 3 * CHANGE_NOTICE_MS));
    expect(stream.received()).not.toMatch(/event: change/);
    // A call that did change something still sends one.
    expect((await t.call('/_mock/reset', { method: 'POST', headers: token })).status).toBe(200);
    await stream.waitFor(/event: change\ndata: \{[^\n]*"reset"/);
    expect(stream.received().match(/event: change/g)).toHaveLength(1);
    stream.close();
  } finally {
    await t.close();
  }
});

test('keeps the page and its assets out of the journal of client requests', async () => {
  const t = await startTestServer();
  try {
    await t.call('/_mock/');
    const journal = (await t.call('/_mock/requests')).json() as { requests: unknown[] };
    expect(journal.requests).toEqual([]);
  } finally {
    await t.close();
  }
});

test("the testing library's control client reads what the dashboard reads, and hears the same notices", async () => {
  const t = await startTestServer();
  try {
    const control = connectBvsMock(t.server.url, { ca: t.server.certificate! });
    const notices: ChangeNotice[] = [];
    const stop = await control.onChange((notice) => notices.push(notice));
    const first = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
    const second = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
    await control.run();
    await waitUntil(() => notices.some((notice) => notice.kinds.includes('emitted')));
    stop();
    expect(notices.flatMap((notice) => notice.kinds)).toEqual(expect.arrayContaining(['request', 'emitted']));
    expect(await control.organizations()).toEqual([{ id: 'default', default: true, oauth_configured: false }]);
    const page = await control.validations({ limit: 1 });
    expect([page.total, page.validations.map((validation) => validation.id)]).toEqual([2, [second.id]]);
    const older = await control.validations({ limit: 1, cursor: page.next_cursor! });
    expect([older.validations.map((validation) => validation.id), older.next_cursor]).toEqual([[first.id], null]);
    const tree = await control.validationTree(first.id);
    expect(tree.settled).toBe(true);
    const runs = tree.validation.data_source_run_batches[0]!.data_source_runs;
    for (const run of runs) expect(tree.run_history[run.id]!.map((change) => change.status)).toEqual(['created', run.status]);
    expect((await control.events({ order: 'newest', limit: 1 })).events).toEqual([]);
  } finally {
    await t.close();
  }
});

async function waitUntil(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}
