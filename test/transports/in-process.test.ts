import { mockParts } from '../../src/mock/create-mock';
import { setupServer } from 'msw/node';
import { createMock } from '../../src';
import { createHandlers } from '../../src/msw';
import { EntityValidation, parseWith } from '../../src/schemas';
import { listenForChanges, type ChangeNotice } from '../../src/testing/change-stream';

const BASE = 'https://bvs.test';
const mock = createMock({ clock: 'manual' });
const server = setupServer(...createHandlers(mock.core, BASE));
const auth = { authorization: 'Bearer test_key_default' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  mock.dispose();
});

test('fetch reaches the mock in-process through msw, and the clock is driven by the test', async () => {
  const created = await fetch(`${BASE}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ entity_validation: { tin: '76920415-6', country: 'CL' } }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const types: string[] = [];
  const unsubscribe = mockParts(mock).world.engine.subscribe((event) => types.push(event.type));
  mockParts(mock).world.clock.runAll();
  unsubscribe();
  expect(types.at(-1)).toBe('data_source_run_batch.consolidated_report_ready');
  const read = await fetch(`${BASE}/api/v2/entity_validations/${id}`, { headers: auth });
  const body = await read.json();
  expect(parseWith(EntityValidation, body).ok).toBe(true);
  expect((body as { related_entities: unknown[] }).related_entities).toHaveLength(3);
});

test('in-process errors have the same shape as over the network', async () => {
  const response = await fetch(`${BASE}/api/v2/entity_validations/evl_missing`, { headers: auth });
  expect(response.status).toBe(404);
  expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  expect(await response.json()).toMatchObject({ error: { code: 'not_found', status: 404 } });
});

test('the base URL scheme counts: plain http through msw is refused as the spec says', async () => {
  const plain = setupServer(...createHandlers(mock.core, 'http://bvs-plain.test'));
  server.close();
  plain.listen();
  try {
    const response = await fetch('http://bvs-plain.test/api/v2/webhook_endpoints', { headers: auth });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'https_required' } });
  } finally {
    plain.close();
    server.listen({ onUnhandledRequest: 'error' });
  }
});

test('in-process, the change stream lets go of a reader that hangs up: a fetch aborted, and control.onChange stopped', async () => {
  const hangUp = new AbortController();
  const answer = await fetch(`${BASE}/_mock/stream`, { signal: hangUp.signal });
  expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(mockParts(mock).world.changes.size).toBe(1);
  hangUp.abort();
  await expect(answer.text()).rejects.toThrow();
  expect(mockParts(mock).world.changes.size).toBe(0);

  let clockMoved: () => void = () => undefined;
  const heard = new Promise<void>((resolve) => (clockMoved = resolve));
  const stop = await listenForChanges({ url: BASE }, (notice) => notice.kinds.includes('clock') && clockMoved());
  expect(mockParts(mock).world.changes.size).toBe(1);
  await fetch(`${BASE}/_mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 1 }) });
  await heard;
  await stop();
  expect(mockParts(mock).world.changes.size).toBe(0);
  // A hang-up msw settles only at the stream's next write (a heartbeat, every 15 s) takes up to 15 s each, and this
  // test has two: a CI run on a busy machine hit jest's 30 s default with both.
}, 60_000);

test('in-process, a change stream read only later still holds every notice sent meanwhile', async () => {
  // Let go by aborting the fetch, as the dashboard and control.onChange do: msw settles a reader's cancel() only
  // once the stream writes again (the next heartbeat, 15 s later), which held this test for up to 23 s.
  const hangUp = new AbortController();
  const answer = await fetch(`${BASE}/_mock/stream`, { signal: hangUp.signal });
  // A listener on the feed itself says when each notice has gone out: the test waits for that, not for time.
  const sent: ChangeNotice[] = [];
  let onSent: (() => void) | undefined;
  const stopWatching = mockParts(mock).world.changes.subscribe((notice) => {
    sent.push(notice);
    onSent?.();
  })!;
  expect(mockParts(mock).world.changes.size).toBe(2);
  try {
    for (let i = 0; i < 3; i += 1) {
      const clockMoved = new Promise<void>((resolve) => (onSent = () => sent.at(-1)!.kinds.includes('clock') && resolve()));
      await fetch(`${BASE}/_mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 1 }) });
      await clockMoved;
    }
  } finally {
    stopWatching();
  }
  // Each advance waited for its own notice, so the three are three notices, not one gathered.
  expect(sent.filter((notice) => notice.kinds.includes('clock'))).toHaveLength(3);
  const reader = answer.body!.getReader();
  let text = '';
  const ids = () => [...text.matchAll(/^id: (\d+)\nevent: change$/gm)].map(([, id]) => Number(id));
  while (ids().length < sent.length) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  expect(ids()).toEqual(sent.map((notice) => notice.id));
  expect(mockParts(mock).world.changes.size).toBe(1);
  hangUp.abort();
  await expect(reader.read()).rejects.toThrow();
  expect(mockParts(mock).world.changes.size).toBe(0);
});

test('in-process, the base URL is answered under any name, and a page of another origin still cannot drive the control API', async () => {
  // msw intercepts in the process: no DNS name led anyone here, so bvs.test needs no --allowed-hosts (docs/fidelity.md row 104).
  expect((await fetch(`${BASE}/_mock/health`)).status).toBe(200);
  const refused = await fetch(`${BASE}/_mock/reset`, { method: 'POST', headers: { origin: 'http://127.0.0.1:5173' } });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ error: { code: 'forbidden_origin' } });
  expect((await fetch(`${BASE}/_mock/reset`, { method: 'POST', headers: { origin: BASE } })).status).toBe(200);
});

test('in-process too, a change-stream reader past maxStreamReaders gets 503 and the cap holds', async () => {
  const capped = createMock({ clock: 'manual', maxStreamReaders: 2 });
  const CAPPED = 'https://bvs-capped.test';
  server.use(...createHandlers(capped.core, CAPPED));
  const hangUp = new AbortController();
  try {
    const open = [await fetch(`${CAPPED}/_mock/stream`, { signal: hangUp.signal }), await fetch(`${CAPPED}/_mock/stream`, { signal: hangUp.signal })];
    expect(open.map((answer) => answer.status)).toEqual([200, 200]);
    const third = await fetch(`${CAPPED}/_mock/stream`, { signal: hangUp.signal });
    expect([third.status, third.headers.get('retry-after') !== null]).toEqual([503, true]);
    expect(await third.json()).toMatchObject({ error: { code: 'service_unavailable', status: 503 } });
    expect(mockParts(capped).world.changes.size).toBe(2);
  } finally {
    hangUp.abort();
    server.resetHandlers();
    capped.dispose();
  }
});
