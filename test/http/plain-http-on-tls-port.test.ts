import fc from 'fast-check';
import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { startNodeServer } from '../../src/http/node-server';
import { selfSignedCertificate } from '../../src/http/self-signed-certificate';
import { ApiError } from '../../src/schemas';
import { useTestServer } from '../support/api-test-server';
import { httpClient } from '../support/https-client';

// Plain HTTP sent to the HTTPS port, over raw sockets: whatever the bytes, the answer is a plain-HTTP
// 400 in the error shape and the process lives on. Regression: a request target that `new URL()`
// refused (`GET http://[::1 HTTP/1.1`) threw outside any try/catch and the process exited 1.

const RUNS = Number(process.env.BVS_FUZZ_RUNS ?? 300);

/** Targets that `new URL(target, base)` throws on; each one used to end the process. */
const CRASHING_TARGETS = ['GET http://[::1 HTTP/1.1', 'GET http://a:99999/ HTTP/1.0', 'GET //x:y/ HTTP/1.1'];

// Short timeouts, so a fuzz input the server waits on ends as a close within the test's bound.
const t = useTestServer({ timeouts: { idleMs: 2_000, headersMs: 2_000, requestMs: 3_000 } }, { reset: false });

/** What came back on one raw connection. */
interface RawExchange {
  bytes: Buffer;
  /** Whether the server closed the connection before the bound. */
  closed: boolean;
}

/** Writes `parts` on a new TCP connection (one write each, `gapMs` apart) and reads until the server closes it, at most `boundMs`. */
function exchange(port: number, parts: Array<string | Buffer>, { gapMs = 0, boundMs = 5_000 } = {}): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    const chunks: Buffer[] = [];
    const finish = (closed: boolean) => {
      clearTimeout(bound);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), closed });
    };
    const bound = setTimeout(() => finish(false), boundMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset is a close too; what matters is that the server ended it.
    socket.on('error', () => undefined);
    socket.once('close', () => finish(true));
    socket.once('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(part);
        if (gapMs > 0) await delay(gapMs);
      }
    });
  });
}

/** Status, headers (lower-case names) and body of a raw HTTP/1.1 answer (chunked or not), or null when the bytes are none. */
function parseAnswer(bytes: Buffer): { status: number; headers: Record<string, string>; body: string } | null {
  const end = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, Math.max(end, 0)).toString('latin1');
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(head);
  if (end < 0 || !status) return null;
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const chunks: Buffer[] = [];
    for (let at = 0; ;) {
      const lineEnd = body.indexOf('\r\n', at);
      const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
      if (!(size > 0)) break;
      chunks.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(chunks);
  }
  return { status: Number(status[1]), headers, body: body.toString('utf8') };
}

/** Checks a refusal: a plain-HTTP 400 that closes the connection, in the error shape with its request id; returns the code. */
function expectPlainRefusal(result: RawExchange, { head = false } = {}): string {
  const answer = parseAnswer(result.bytes);
  if (!answer) throw new Error(`expected a plain-HTTP answer, got ${JSON.stringify(result.bytes.toString('latin1').slice(0, 300))} (closed: ${result.closed})`);
  expect(result.closed).toBe(true);
  expect(answer.status).toBe(400);
  expect(answer.headers.connection).toBe('close');
  expect(answer.headers['x-request-id']).toMatch(/^req_(conn_)?\d+$/);
  if (head) return '(HEAD: no body)';
  const parsed = ApiError.safeParse(JSON.parse(answer.body));
  if (!parsed.success) throw new Error(`not the error shape: ${answer.body.slice(0, 300)}`);
  expect(parsed.data.error.request_id).toBe(answer.headers['x-request-id']);
  expect(parsed.data.error.status).toBe(400);
  return parsed.data.error.code;
}

async function expectHealthyOverHttps(): Promise<void> {
  expect((await t.call('/_mock/health')).status).toBe(200);
}

test.each([
  ['GET http://[::1 HTTP/1.1', 'invalid_request'],
  ['GET http://a:99999/ HTTP/1.0', 'invalid_request'],
  // The origin form is a path even when it starts with "//", so the core reads it and answers.
  ['GET //x:y/ HTTP/1.1', 'https_required'],
])('a plain request line %j whose target URL cannot parse is answered 400 %s, and HTTPS stays healthy', async (line, code) => {
  const result = await exchange(t.server.port, [`${line}\r\nHost: 127.0.0.1\r\n\r\n`]);
  expect(expectPlainRefusal(result)).toBe(code);
  await expectHealthyOverHttps();
});

test('a plain-HTTP head that arrives one byte at a time is answered https_required', async () => {
  const head = 'GET /_mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const result = await exchange(t.server.port, [...head], { gapMs: 3 });
  expect(expectPlainRefusal(result)).toBe('https_required');
  await expectHealthyOverHttps();
});

test('bytes that are neither TLS nor HTTP are answered 400 invalid_request', async () => {
  const result = await exchange(t.server.port, [Buffer.from([0x00, 0xff, 0x13, 0x37]), 'not http\r\n\r\n']);
  expect(expectPlainRefusal(result)).toBe('invalid_request');
  await expectHealthyOverHttps();
});

test('clients that go away before the answer leave the server healthy', async () => {
  const cuts = ['G', 'GET http://[::1 HTTP/1.1\r\n', 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 'POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc'];
  await Promise.all(
    cuts.map(
      (bytes) =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port: t.server.port });
          socket.on('error', () => undefined);
          socket.once('close', () => resolve());
          socket.once('connect', () => socket.end(bytes, () => socket.destroy()));
        }),
    ),
  );
  await expectHealthyOverHttps();
  expect(t.unexpectedErrors).toEqual([]);
});

test('a core that rejects is answered 500 internal_error in the error shape, logged with its id, over plain HTTP on the TLS port and over HTTPS', async () => {
  const tls = await selfSignedCertificate(['127.0.0.1']);
  const server = await startNodeServer({
    core: { bodyLimit: 1024, bodyLimitFor: () => 1024, handle: () => Promise.reject(new Error('core bug')) },
    host: '127.0.0.1',
    port: 0,
    tls,
  });
  const client = httpClient({ baseUrl: server.url, ca: tls.cert });
  const logged = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const plain = parseAnswer((await exchange(server.port, ['GET /_mock/health HTTP/1.1\r\nHost: x\r\n\r\n'])).bytes);
    const secure = await client.request('/_mock/health');
    for (const answer of [plain, { status: secure.status, headers: secure.headers as Record<string, string>, body: secure.text() }]) {
      expect(answer?.status).toBe(500);
      const { error } = ApiError.parse(JSON.parse(answer!.body));
      expect(error).toMatchObject({ code: 'internal_error', request_id: answer!.headers['x-request-id'] });
      expect(logged.mock.calls.map(([line]) => String(line)).join('')).toContain(`${error.request_id}: unexpected error in the node server: Error: core bug`);
    }
  } finally {
    logged.mockRestore();
    client.close();
    await server.close();
  }
});

/** Header names that announce a body or a protocol switch: the server would rightly wait for more, which this fuzz does not send. */
const BODY_OR_SWITCH = /^(content-length|transfer-encoding|connection|upgrade|expect)$/i;

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);

const requestLine = fc.record({
  method: fc.oneof(
    { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'FROB', 'get'), weight: 3 },
    { arbitrary: token, weight: 1 },
  ),
  target: fc.oneof(
    fc.constantFrom(
      'http://[::1',
      'http://a:99999/',
      '//x:y/',
      'http://',
      'http://[',
      'https://a:-1/x',
      '//',
      '/%zz',
      '*',
      'a:1',
      'http://a/%',
      '/api/v2/entity_validations?x=%',
    ),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.webPath(),
    fc.string({ minLength: 1, maxLength: 30 }).filter((value) => !/[\s]/.test(value)),
  ),
  version: fc.oneof(
    { arbitrary: fc.constantFrom('HTTP/1.1', 'HTTP/1.0'), weight: 3 },
    { arbitrary: fc.constantFrom('HTTP/2.0', 'HTTP/1.2', 'HTTPS/1.1', 'http/1.1', ''), weight: 1 },
  ),
});

const header = fc.tuple(
  fc.oneof(fc.constantFrom('host', 'authorization', 'accept', 'content-type', 'x-mock-scenario', 'Host'), token).filter((name) => !BODY_OR_SWITCH.test(name)),
  fc.string({ maxLength: 40 }).filter((value) => !/[\r\n]/.test(value)),
);

const packet = fc.record({
  line: fc.oneof(
    requestLine.map(({ method, target, version }) => [method, target, version].filter((part) => part !== '').join(' ')),
    fc.constantFrom(...CRASHING_TARGETS),
  ),
  // Mostly with a Host header, so most packets reach the core rather than the Host check.
  host: fc.oneof({ arbitrary: fc.constant(['Host', '127.0.0.1'] as [string, string]), weight: 3 }, { arbitrary: fc.constant(undefined), weight: 1 }),
  headers: fc.array(header, { maxLength: 4 }),
  newline: fc.constantFrom('\r\n', '\n'),
  cuts: fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 4 }),
});

test('no plain-HTTP packet on the HTTPS port ends the process: each is answered 400 in the error shape, and HTTPS answers after each', async () => {
  const codes = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(packet, async ({ line, host, headers, newline, cuts }) => {
      const bytes = Buffer.from(
        `${line}${newline}${[...(host ? [host] : []), ...headers].map(([name, value]) => `${name}: ${value}${newline}`).join('')}${newline}`,
        'utf8',
      );
      const at = [0, ...cuts.filter((cut) => cut < bytes.length).sort((a, b) => a - b), bytes.length];
      const parts = at.slice(1).map((end, index) => bytes.subarray(at[index], end));
      const code = expectPlainRefusal(await exchange(t.server.port, parts), { head: line.startsWith('HEAD ') });
      codes.set(code, (codes.get(code) ?? 0) + 1);
      await expectHealthyOverHttps();
    }),
    { numRuns: RUNS, interruptAfterTimeLimit: 12_000 },
  );
  process.stdout.write(`plain-http fuzz: codes ${JSON.stringify(Object.fromEntries(codes))}\n`);
  expect(t.unexpectedErrors).toEqual([]);
});
