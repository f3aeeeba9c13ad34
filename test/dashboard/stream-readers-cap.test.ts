import { mockParts } from '../../src/mock/create-mock';
import { connectBvsMock } from '../../src/testing';
import { startTestServer } from '../support/api-test-server';
import { openEventStream, type OpenStream } from '../support/event-stream';

// 600 readers of GET /_mock/stream once took all 512 connections of bvs-mock's server: every later
// connection was reset and health failed for 30 s. Readers are capped well below the connection limit,
// and one past the cap gets a 503 that says how many are open and what to do, on a connection closed at once.

test('a reader past maxStreamReaders gets 503 with Retry-After and how many readers are open, and health still answers', async () => {
  const t = await startTestServer({ maxStreamReaders: 4 });
  const streams: OpenStream[] = [];
  try {
    for (let i = 0; i < 4; i += 1) streams.push(await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate }));
    for (const stream of streams) await stream.waitFor(/event: ready/);
    const fifth = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate });
    streams.push(fifth);
    expect(fifth.status).toBe(503);
    expect(fifth.headers['retry-after']).toMatch(/^\d+$/);
    expect(fifth.headers.connection).toBe('close');
    await fifth.ended;
    const error = (JSON.parse(fifth.received()) as { error: { code: string; status: number; message: string } }).error;
    expect([error.code, error.status]).toEqual(['service_unavailable', 503]);
    expect(error.message).toMatch(/4 change-stream readers .*are open/);
    expect(error.message).toMatch(/--max-stream-readers/);
    expect(mockParts(t.server).world.changes.size).toBe(4);
    expect((await t.call('/_mock/health')).status).toBe(200);
    // The testing library's listener says why, not that the token may be wrong.
    const control = connectBvsMock(t.server.url, { ca: t.server.certificate! });
    await expect(control.onChange(() => undefined)).rejects.toThrow(/answered 503: 4 change-stream readers .*--max-stream-readers/);
    // A place freed is a place taken again.
    streams[0]!.close();
    await waitUntil(() => mockParts(t.server).world.changes.size === 3);
    const again = await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate });
    streams.push(again);
    expect(again.status).toBe(200);
    await again.waitFor(/event: ready/);
  } finally {
    for (const stream of streams) stream.close();
    await t.close();
  }
});

test('forty readers past the cap are all refused and their connections closed, so the API and health are never locked out', async () => {
  const t = await startTestServer({ maxStreamReaders: 4 });
  const streams: OpenStream[] = [];
  try {
    for (let i = 0; i < 4; i += 1) streams.push(await openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate }));
    const refused = await Promise.all(Array.from({ length: 40 }, () => openEventStream(t.server.url, '/_mock/stream', { ca: t.server.certificate })));
    streams.push(...refused);
    expect(refused.map((stream) => stream.status)).toEqual(Array.from({ length: 40 }, () => 503));
    await Promise.all(refused.map((stream) => stream.ended));
    expect(mockParts(t.server).world.changes.size).toBe(4);
    expect((await t.call('/_mock/health')).status).toBe(200);
    expect((await t.get('/api/v2/webhook_endpoints')).status).toBe(200);
  } finally {
    for (const stream of streams) stream.close();
    await t.close();
  }
});

async function waitUntil(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}
