import { connect as connectTls, createSecureContext, type TLSSocket } from 'node:tls';
import { setTimeout as delay } from 'node:timers/promises';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// 450 TLS connections asking for a 4.1 MB page of /_mock/events without reading took the server to 5.4 GB.
// A connection whose client does not read holds at most the one answer being written: its next pipelined
// request is not even answered until that one is written out, and once its socket has not drained for the
// idle timeout, the connection is let go.

/** Pipelined requests written at once by the client that never reads. */
const PIPELINED = 40;

const IDLE_MS = 500;

let receiver: WebhookReceiver;
let t: TestServer;
const answered: string[] = [];
/** Every request the server answered, in order: its path. */
const order: string[] = [];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestServer({
    clock: 'instant',
    allowHttpWebhooks: true,
    timeouts: { idleMs: IDLE_MS },
    onRequest: (entry) => {
      order.push(entry.path);
      if (entry.path === '/_mock/events') answered.push(entry.id);
    },
  });
  expect((await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, auth_type: 'none' })).status).toBe(201);
  // About 1,000 delivery records of 2 KB: a page of them is larger than what the loopback's socket buffers take.
  for (let i = 0; i < 84; i += 1) await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

test('a client that pipelines requests for large pages and never reads holds one answer at a time, and is let go after the idle timeout while health answers', async () => {
  const page = await t.call('/_mock/events?limit=1000&order=newest');
  expect(page.body.length).toBeGreaterThan(500_000);
  answered.length = 0;
  const socket: TLSSocket = connectTls({ host: '127.0.0.1', port: t.server.port, ca: t.server.certificate! });
  let closed = false;
  socket.on('error', () => undefined);
  socket.once('close', () => (closed = true));
  try {
    await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
    // The client stops reading at once: what the server sends stays in the socket buffers.
    socket.pause();
    socket.write('GET /_mock/events?limit=1000&order=newest HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(PIPELINED));
    const healthStatuses: number[] = [];
    for (let waited = 0; waited < 6 * IDLE_MS; waited += 250) {
      healthStatuses.push((await t.call('/_mock/health')).status);
      await delay(250);
    }
    expect(healthStatuses.every((status) => status === 200)).toBe(true);
    // Only the answers the kernel's buffers took, and the one stuck behind them, were made: never all forty.
    expect(answered.length).toBeLessThan(PIPELINED / 4);
    // Let go by the server: reading now finds the end of the connection soon, having received only a few answers.
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    for (let waited = 0; !closed && waited < 10_000; waited += 50) await delay(50);
    expect(closed).toBe(true);
    expect(received).toBeLessThan((PIPELINED / 4) * page.body.length);
  } finally {
    socket.destroy();
  }
}, 60_000);

test('a client that pipelines requests and reads gets every answer, in order, a large page whole', async () => {
  const whole = await t.call('/_mock/events?limit=1000&order=newest');
  const socket: TLSSocket = connectTls({ host: '127.0.0.1', port: t.server.port, ca: t.server.certificate! });
  try {
    await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    socket.write(request('/_mock/health') + request('/_mock/events?limit=1000&order=newest') + request('/_mock/clock') + request('/_mock/health'));
    const text = () => Buffer.concat(chunks).toString('utf8');
    for (let waited = 0; (text().match(/HTTP\/1\.1 200 /g) ?? []).length < 4 && waited < 10_000; waited += 20) await delay(20);
    const answers = text().split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(answers.map((answer) => /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])).toEqual(['200', '200', '200', '200']);
    expect(answers[0]).toMatch(/"status":"ok"/);
    expect(answers[1]!.slice(answers[1]!.indexOf('\r\n\r\n') + 4)).toBe(whole.text());
    expect(answers[2]).toMatch(/"mode":"instant"/);
    expect(answers[3]).toMatch(/"status":"ok"/);
  } finally {
    socket.destroy();
  }
}, 30_000);

test('a crowd of requests for large pages takes turns: a health check sent after them is answered before most of them', async () => {
  const CROWD = 40;
  const sockets = await Promise.all(
    Array.from(
      { length: CROWD + 1 },
      () =>
        new Promise<TLSSocket>((resolve) => {
          const socket = connectTls({ host: '127.0.0.1', port: t.server.port, ca: t.server.certificate! }, () => resolve(socket));
          socket.on('error', () => undefined);
        }),
    ),
  );
  try {
    order.length = 0;
    const healthAnswered = new Promise<void>((resolve) => sockets[CROWD]!.once('data', () => resolve()));
    for (const socket of sockets.slice(0, CROWD)) socket.write('GET /_mock/events?limit=1000&order=newest HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    sockets[CROWD]!.write('GET /_mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await healthAnswered;
    // Without turns, every page sent before it was made first (40 of them, about 5 ms each).
    expect(order.indexOf('/_mock/health')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('/_mock/health')).toBeLessThan(CROWD / 2);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}, 30_000);

test('while a crowd of page requests takes turns, new connections are still let in: a health check on a fresh one, opened after a burst of 150, is answered before most pages', async () => {
  const BURST = 150;
  const sockets: TLSSocket[] = [];
  const secureContext = createSecureContext({ ca: t.server.certificate! });
  try {
    order.length = 0;
    for (let i = 0; i < BURST; i += 1) {
      const socket = connectTls({ host: '127.0.0.1', port: t.server.port, secureContext, servername: 'localhost' }, () =>
        socket.write('GET /_mock/events?limit=1000&order=newest HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      );
      socket.on('error', () => undefined);
      sockets.push(socket);
    }
    // Once the first pages are being made, a health check on a connection of its own.
    while (!order.includes('/_mock/events')) await delay(5);
    const health = connectTls({ host: '127.0.0.1', port: t.server.port, secureContext, servername: 'localhost' }, () =>
      health.write('GET /_mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
    health.on('error', () => undefined);
    sockets.push(health);
    await new Promise<void>((resolve) => health.once('data', () => resolve()));
    const pagesBefore = order.slice(0, order.indexOf('/_mock/health')).filter((path) => path === '/_mock/events').length;
    expect(pagesBefore).toBeLessThan(BURST / 2);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}, 60_000);
