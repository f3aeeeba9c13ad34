import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { connect as connectTls } from 'node:tls';
import { selfSignedCertificate } from '../../src/http/self-signed-certificate';
import type { RelayServerOptions, RunningRelay } from '../../src/http/start-relay';
import type { WebhookReceiver } from '../../src/testing';
import { dribble, hold } from '../support/held-connection';
import { startPlainRelay } from '../support/relay-kit';

// `bvs-mock listen` on the node transport of `bvs-mock serve` (src/http/node-server.ts). Regression: the relay was a
// plain node:http(s) server, with node's own limits only: a slowloris client held its socket for a minute (node's
// headersTimeout) and any number of connections were taken.

/** Short timeouts so the test runs in seconds, as test/http/connection-timeouts.test.ts gives serve. */
const TIMEOUTS = { idleMs: 600, handshakeMs: 600, headersMs: 800, requestMs: 1_200, keepAliveMs: 300 };

let receiver: WebhookReceiver | undefined;
let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  await close?.();
  close = undefined;
  receiver = undefined;
});

async function startRelay(options: Partial<RelayServerOptions> = {}): Promise<RunningRelay> {
  const started = await startPlainRelay(options);
  ({ receiver, close } = started);
  return started.relay;
}

const portOf = (running: RunningRelay) => Number(new URL(running.url).port);

const DELIVERY = JSON.stringify({ type: 'entity_validation.stakeholder.created', stakeholder: { id: 'evl_1' } });

test.each([
  ['HTTPS', true],
  ['plain HTTP', false],
])('over %s, a client sending its headers a byte at a time (slowloris) is cut off, while deliveries are still relayed', async (_mode, secure) => {
  const tls = secure ? await selfSignedCertificate(['127.0.0.1']) : null;
  const running = await startRelay({ tls, timeouts: TIMEOUTS });
  const open = (ready: (socket: Socket) => void): Socket => {
    if (tls === null) {
      const socket = connect({ host: '127.0.0.1', port: portOf(running) });
      socket.once('connect', () => ready(socket));
      return socket;
    }
    const socket = connectTls({ host: '127.0.0.1', port: portOf(running), ca: tls.cert });
    socket.once('secureConnect', () => ready(socket));
    return socket;
  };
  const slow = Array.from({ length: 5 }, () =>
    hold(
      open((socket) => {
        socket.write('POST /hooks HTTP/1.1\r\nHost: x\r\n');
        dribble(socket, 'x');
      }),
    ),
  );
  const silent = hold(open(() => undefined));
  const closed = await Promise.all([...slow, silent].map((connection) => connection.closedAfterMs));
  expect(closed.map((ms) => (ms === null ? 'still open' : 'closed by the relay'))).toEqual(Array(6).fill('closed by the relay'));
  const answer = await postDelivery(running, tls?.cert);
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(receiver!.received.map((hook) => hook.body)).toEqual([JSON.parse(DELIVERY)]);
});

test('a connection beyond maxConnections is closed as it is accepted, and the relay answers again once others close', async () => {
  const running = await startRelay({ maxConnections: 3 });
  const sockets: Socket[] = [];
  try {
    const held = [];
    for (let index = 0; index < 4; index += 1) {
      const socket = connect({ host: '127.0.0.1', port: portOf(running) });
      sockets.push(socket);
      held.push(hold(socket));
      await new Promise((resolve) => socket.once('connect', resolve));
    }
    expect(await held[3]!.closedAfterMs).not.toBeNull();
    const others = await Promise.all(held.slice(0, 3).map((connection) => Promise.race([connection.closedAfterMs, delay(200).then(() => 'open')])));
    expect(others).toEqual(['open', 'open', 'open']);
    for (const socket of sockets) socket.destroy();
    let answer = '';
    for (let attempt = 0; attempt < 50 && !answer.startsWith('HTTP/1.1 200'); attempt += 1) {
      answer = await postDelivery(running);
      if (!answer.startsWith('HTTP/1.1 200')) await delay(100);
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
});

test('plain HTTP on the HTTPS port is answered 400, not relayed; a body over 5 MiB is still 413; GET /_mock/relay still wants the control token', async () => {
  const tls = await selfSignedCertificate(['127.0.0.1']);
  const running = await startRelay({ tls, controlToken: 'relay-token-0123456789' });
  const plain = await rawRequest(
    portOf(running),
    null,
    `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${DELIVERY.length}\r\n\r\n${DELIVERY}`,
  );
  expect(plain).toMatch(/^HTTP\/1\.1 400 [\s\S]*this port serves HTTPS/);
  const large = 'x'.repeat(5 * 1024 * 1024 + 1);
  const refused = await rawRequest(
    portOf(running),
    tls.cert,
    `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${large.length}\r\nConnection: close\r\n\r\n${large}`,
  );
  expect(refused).toMatch(/^HTTP\/1\.1 413 [\s\S]*more than 5242880 bytes is refused/);
  expect(await rawRequest(portOf(running), tls.cert, 'GET /_mock/relay HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 401 /);
  const report = await rawRequest(
    portOf(running),
    tls.cert,
    'GET /_mock/relay HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer relay-token-0123456789\r\nConnection: close\r\n\r\n',
  );
  expect(report).toMatch(/^HTTP\/1\.1 200 [\s\S]*"deliveries":\[\]/);
  expect(receiver!.received).toEqual([]);
});

/** One delivery on a fresh connection: the relay's whole answer as text. */
function postDelivery(running: RunningRelay, ca?: string): Promise<string> {
  return rawRequest(
    portOf(running),
    ca ?? null,
    `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${DELIVERY.length}\r\nConnection: close\r\n\r\n${DELIVERY}`,
  );
}

/** Sends `request` on a fresh connection (TLS trusting `ca`, or plain); answers all that came until the relay closed it. */
function rawRequest(port: number, ca: string | null, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = ca === null ? connect({ host: '127.0.0.1', port }) : connectTls({ host: '127.0.0.1', port, ca });
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once(ca === null ? 'connect' : 'secureConnect', () => socket.write(request));
    socket.once('close', () => resolve(received));
  });
}
