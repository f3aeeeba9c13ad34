import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { connect as connectTls } from 'node:tls';
import { createMock, startServer, type StartedServer } from '../../src/http';
import { startNodeServer } from '../../src/http/node-server';
import { DEFAULT_API_KEY, bearer, startTestServer } from '../support/api-test-server';
import { dribble, hold, type HeldConnection } from '../support/held-connection';

// Connections that never finish, over real sockets on 127.0.0.1. Regression: the HTTPS listener had no
// idle, header or request timeout (its sockets reach the HTTPS server through emit('connection'), where
// node's header and request checks never ran), so 2,000 idle and 500 slowloris connections were still
// held after 400 s and, with 1,024 file descriptors, the health check failed.

/** Short timeouts so the test runs in seconds; node-server.ts holds the real defaults. */
const TIMEOUTS = { idleMs: 600, handshakeMs: 600, headersMs: 800, requestMs: 1_200, keepAliveMs: 300 };

/** Connections of each kind. */
const N = 50;

/** The first bytes of a TLS ClientHello (record header, then the start of the handshake message), and no more. */
const CLIENT_HELLO_START = Buffer.from([0x16, 0x03, 0x01, 0x00, 0xc8, 0x01, 0x00, 0x00, 0xc4, 0x03, 0x03]);

interface Kind {
  name: string;
  tlsOnly?: boolean;
  /** Opens one connection and starts its script. */
  open(server: StartedServer): HeldConnection;
}

/**
 * A TCP connection, or with TLS a verified TLS connection; `ready` runs once it can carry HTTP.
 * `allowHalfOpen` keeps the client's side open after the server's FIN, as a hostile client would.
 */
function httpConnection(server: StartedServer, ready: (socket: Socket) => void, { allowHalfOpen = false } = {}): Socket {
  if (server.certificate === null) {
    const socket = connect({ host: '127.0.0.1', port: server.port, allowHalfOpen });
    socket.once('connect', () => ready(socket));
    return socket;
  }
  // Node's TLS socket honours allowHalfOpen, which its types leave out.
  const socket = connectTls(Object.assign({ host: '127.0.0.1', port: server.port, ca: server.certificate }, { allowHalfOpen }));
  socket.once('secureConnect', () => ready(socket));
  return socket;
}

const KINDS: Kind[] = [
  { name: 'silent from the start', open: (server) => hold(connect({ host: '127.0.0.1', port: server.port })) },
  {
    name: 'a TLS handshake that stops',
    tlsOnly: true,
    open(server) {
      const socket = connect({ host: '127.0.0.1', port: server.port });
      socket.once('connect', () => socket.write(CLIENT_HELLO_START));
      return hold(socket);
    },
  },
  { name: 'silent after the TLS handshake', tlsOnly: true, open: (server) => hold(httpConnection(server, () => undefined)) },
  {
    name: 'headers one byte at a time (slowloris)',
    open: (server) =>
      hold(
        httpConnection(server, (socket) => {
          socket.write('GET /_mock/health HTTP/1.1\r\nHost: x\r\n');
          dribble(socket, 'x');
        }),
      ),
  },
  {
    name: 'a body one byte at a time',
    open: (server) =>
      hold(
        httpConnection(server, (socket) => {
          socket.write('POST /_mock/clock/advance HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
          dribble(socket, ' ');
        }),
      ),
  },
  {
    name: 'kept alive after one answer',
    open: (server) => hold(httpConnection(server, (socket) => socket.write('GET /_mock/health HTTP/1.1\r\nHost: x\r\n\r\n'))),
  },
  {
    name: 'refused as HTTP, then sending on',
    open: (server) =>
      hold(
        httpConnection(server, (socket) => {
          socket.write('FROB / HTTP/1.1\r\n');
          dribble(socket, 'x');
        }),
      ),
  },
  {
    name: 'refused as HTTP, then half-open and sending on',
    open: (server) =>
      hold(
        httpConnection(
          server,
          (socket) => {
            socket.write('FROB / HTTP/1.1\r\n');
            dribble(socket, 'x');
          },
          { allowHalfOpen: true },
        ),
      ),
  },
];

test.each([
  ['HTTPS', false],
  ['plain HTTP (--http)', true],
])('over %s, silent, slow and stalled connections are closed by the server within the bound while /_mock/health answers 200', async (mode, http) => {
  const t = await startTestServer({ http, timeouts: TIMEOUTS });
  try {
    const kinds = KINDS.filter((kind) => !http || !kind.tlsOnly);
    const held = kinds.map((kind) => ({ kind: kind.name, connections: Array.from({ length: N }, () => kind.open(t.server)) }));
    let waiting = true;
    const closings = Promise.all(
      held.map(async ({ kind, connections }) => ({ kind, closedAfterMs: await Promise.all(connections.map((connection) => connection.closedAfterMs)) })),
    ).finally(() => {
      waiting = false;
    });
    const healthStatuses: number[] = [];
    while (waiting) {
      healthStatuses.push((await t.call('/_mock/health')).status);
      await delay(100);
    }
    const results = await closings;
    const slowest = results.map(({ kind, closedAfterMs }) => [kind, closedAfterMs.includes(null) ? 'open' : Math.max(...(closedAfterMs as number[]))]);
    process.stdout.write(`${mode}: slowest close per kind (ms) ${JSON.stringify(Object.fromEntries(slowest))}\n`);
    const stillOpen = Object.fromEntries(results.map(({ kind, closedAfterMs }) => [kind, closedAfterMs.filter((ms) => ms === null).length]));
    expect(stillOpen).toEqual(Object.fromEntries(kinds.map((kind) => [kind.name, 0])));
    expect(healthStatuses.length).toBeGreaterThan(0);
    expect(healthStatuses.filter((status) => status !== 200)).toEqual([]);
    for (const connection of held.find(({ kind }) => kind === 'kept alive after one answer')!.connections)
      expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect((await t.call('/_mock/health')).status).toBe(200);
  } finally {
    await t.close();
  }
});

test.each([
  ['HTTPS', false],
  ['plain HTTP (--http)', true],
])('over %s, an answer the server holds longer than the idle timeout (an api_latency fault) still arrives', async (_mode, http) => {
  const t = await startTestServer({ http, timeouts: { ...TIMEOUTS, idleMs: 300 } });
  try {
    expect((await t.json('POST', '/_mock/faults', { kind: 'api_latency', ms: 1_000, path: '/api/v2/webhook_endpoints' })).status).toBe(201);
    expect((await t.call('/api/v2/webhook_endpoints', { headers: bearer(DEFAULT_API_KEY) })).status).toBe(200);
  } finally {
    await t.close();
  }
});

test('a connection beyond maxConnections is closed as it is accepted, and the server answers again once others close', async () => {
  const mock = createMock({ clock: 'manual', requireHttps: false });
  const server = await startNodeServer({
    core: mock.core,
    host: '127.0.0.1',
    port: 0,
    tls: null,
    maxConnections: 5,
  });
  const sockets: Socket[] = [];
  try {
    const held: HeldConnection[] = [];
    for (let index = 0; index < 6; index += 1) {
      const socket = connect({ host: '127.0.0.1', port: server.port });
      sockets.push(socket);
      held.push(hold(socket));
      await new Promise((resolve) => socket.once('connect', resolve));
    }
    // The sixth is dropped at once; the default idle timeout (10 s) leaves the five others open meanwhile.
    expect(await held[5]!.closedAfterMs).not.toBeNull();
    const closed = await Promise.all(held.slice(0, 5).map((connection) => Promise.race([connection.closedAfterMs, delay(200).then(() => 'open')])));
    expect(closed).toEqual(['open', 'open', 'open', 'open', 'open']);
    for (const socket of sockets) socket.destroy();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      status = await healthOverPlainHttp(server.port);
      if (status !== 200) await delay(100);
    }
    expect(status).toBe(200);
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.close();
    mock.dispose();
  }
});

/** `GET /_mock/health` on a fresh connection; 0 when the connection is closed without an answer. */
function healthOverPlainHttp(port: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('connect', () => socket.write('GET /_mock/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    socket.once('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
  });
}

test('timeouts node would refuse are refused at start, saying which and what to give', async () => {
  await expect(startServer({ http: true, port: 0, clock: 'manual', timeouts: { headersMs: 2_000, requestMs: 1_000 } })).rejects.toThrow(
    /timeouts\.headersMs \(2000\) is longer than timeouts\.requestMs \(1000\).*at least 2000/,
  );
  await expect(startServer({ http: true, port: 0, clock: 'manual', timeouts: { idleMs: 0 } })).rejects.toThrow(
    /timeouts\.idleMs is 0; give a whole number of milliseconds above 0/,
  );
});
