import { mockParts } from '../../src/mock/create-mock';
import express, { type Express } from 'express';
import { request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Server } from 'node:http';
import { bvsMockMiddleware, createMock, type Mock } from '../../src';
import { openEventStream } from '../support/event-stream';

const mock = createMock({ clock: 'manual', requireHttps: false });
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.get('/own-route', (_request, response) => {
    response.json({ mine: true });
  });
  app.use(bvsMockMiddleware(mock.core));
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  mock.dispose();
});

test("bvs-mock mounted in an express app answers the API next to the app's own routes", async () => {
  expect(await (await fetch(`${base}/own-route`)).json()).toEqual({ mine: true });
  const created = await fetch(`${base}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
    body: JSON.stringify({ tin: '76354771-K', country: 'CL' }),
  });
  expect(created.status).toBe(201);
  expect(await created.json()).toMatchObject({ tin: '76354771-K', name: expect.any(String) });
});

test('errors through the middleware keep the one error shape', async () => {
  const response = await fetch(`${base}/api/v2/entity_validations`, { method: 'POST', headers: { authorization: 'Bearer nope' } });
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ error: { code: 'invalid_token', request_id: response.headers.get('x-request-id') } });
});

test('the change stream through the middleware sends notices as they happen and lets go of a client that hangs up', async () => {
  // The server's end of the stream's connection: once it has closed, bvs-mock has heard the hang-up.
  const serverSideClosed = new Promise<void>((resolve) => server.once('connection', (socket: Socket) => socket.once('close', () => resolve())));
  const stream = await openEventStream(base, '/_mock/stream');
  expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
  expect(mockParts(mock).world.changes.size).toBe(1);
  await fetch(`${base}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
    body: JSON.stringify({ tin: '76354771-K', country: 'CL' }),
  });
  await stream.waitFor(/"kinds":\[[^\]]*"request"/);
  stream.close();
  await serverSideClosed;
  // The response's own 'close', which ends the stream, follows the socket's on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  expect(mockParts(mock).world.changes.size).toBe(0);
});

test('through the middleware, an unknown Host is refused (DNS rebinding) and so is a page of another origin on the control API', async () => {
  const status = (path: string, method: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      const outgoing = httpRequest({ host: hostname, port, path, method, headers }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  expect(await status('/_mock/health', 'GET', { host: 'attacker.example' })).toBe(421);
  expect(await status('/_mock/health', 'GET', { host: 'bvs:4010' })).toBe(200);
  expect(await status('/_mock/reset', 'POST', { origin: 'http://127.0.0.1:5173' })).toBe(403);
  expect(await status('/_mock/reset', 'POST', { origin: base })).toBe(200);
});

test('through the middleware too, a change-stream reader past maxStreamReaders gets 503 and the cap holds', async () => {
  const capped = createMock({ clock: 'manual', requireHttps: false, maxStreamReaders: 2 });
  const app = express();
  app.use(bvsMockMiddleware(capped.core));
  const cappedServer = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const cappedBase = `http://127.0.0.1:${(cappedServer.address() as AddressInfo).port}`;
  const streams = [await openEventStream(cappedBase, '/_mock/stream'), await openEventStream(cappedBase, '/_mock/stream')];
  try {
    const third = await openEventStream(cappedBase, '/_mock/stream');
    streams.push(third);
    expect([third.status, third.headers['retry-after'] !== undefined]).toEqual([503, true]);
    expect(third.received()).toMatch(/"code":"service_unavailable"/);
    expect(mockParts(capped).world.changes.size).toBe(2);
  } finally {
    for (const stream of streams) stream.close();
    cappedServer.closeAllConnections();
    await new Promise<void>((resolve) => cappedServer.close(() => resolve()));
    capped.dispose();
  }
});

/** An express app with `setUp` and bvs-mock's middleware after it, listening on a free port until `close`. */
async function mounted(core: Mock['core'], setUp: (app: Express) => void): Promise<{ base: string; close: () => Promise<void> }> {
  const app = express();
  setUp(app);
  app.use(bvsMockMiddleware(core));
  const listening = await new Promise<Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  return {
    base: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => listening.close(() => resolve())),
  };
}

test("a body that the app's own parser read before bvs-mock (express.json, express.urlencoded) reaches bvs-mock as sent", async () => {
  const app = await mounted(mock.core, (express_) => express_.use(express.json(), express.urlencoded({ extended: false })));
  try {
    const created = await fetch(`${app.base}/api/v2/entity_validations`, {
      method: 'POST',
      headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
      body: JSON.stringify({ tin: '76354771-K', country: 'CL' }),
    });
    expect([created.status, ((await created.json()) as { tin?: string }).tin]).toEqual([201, '76354771-K']);
    const token = await fetch(`${app.base}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'wrong' }),
    });
    // The form arrived whole: its client is judged (401 invalid_client), not its grant type found missing.
    expect([token.status, ((await token.json()) as { error?: string }).error]).toEqual([401, 'invalid_client']);
  } finally {
    await app.close();
  }
});

test("through the middleware, a body over the mock's bodyLimit is answered 413 payload_too_large", async () => {
  const small = createMock({ clock: 'manual', requireHttps: false, bodyLimit: 1024 });
  const app = await mounted(small.core, () => undefined);
  try {
    const answer = await fetch(`${app.base}/api/v2/entity_validations`, {
      method: 'POST',
      headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
      body: JSON.stringify({ tin: '76354771-K', country: 'CL', padding: 'x'.repeat(4096) }),
    });
    expect([answer.status, ((await answer.json()) as { error?: { code?: string } }).error?.code]).toEqual([413, 'payload_too_large']);
  } finally {
    await app.close();
    small.dispose();
  }
});

test("behind a proxy the app trusts, X-Forwarded-Proto: https counts as HTTPS for a mock that requires it (express's req.protocol)", async () => {
  const secure = createMock({ clock: 'manual' });
  const app = await mounted(secure.core, (express_) => express_.set('trust proxy', 'loopback'));
  try {
    const status = async (headers: Record<string, string>) =>
      (await fetch(`${app.base}/api/v2/webhook_endpoints`, { headers: { authorization: 'Bearer test_key_default', ...headers } })).status;
    expect([await status({ 'x-forwarded-proto': 'https' }), await status({})]).toEqual([200, 400]);
  } finally {
    await app.close();
    secure.dispose();
  }
});

test('through the middleware, an api_reset fault resets the connection as bvs-mock serve does, and the app goes on serving', async () => {
  // msw's middleware wrote the reset as status 0, which node throws on outside any handler: the app's process ended.
  const faulty = createMock({ clock: 'manual', requireHttps: false });
  const app = await mounted(faulty.core, () => undefined);
  try {
    const added = await fetch(`${app.base}/_mock/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'api_reset', count: 1, path: '/api/v2/webhook_endpoints' }),
    });
    expect(added.status).toBe(201);
    const list = () => fetch(`${app.base}/api/v2/webhook_endpoints`, { headers: { authorization: 'Bearer test_key_default' } });
    const reset = await list().then(
      (answer) => `answered ${answer.status}`,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(reset).toBe('UND_ERR_SOCKET');
    expect((await list()).status).toBe(200);
  } finally {
    await app.close();
    faulty.dispose();
  }
});
