import { request as httpsRequest } from 'node:https';
import { ApiError } from '../../src/schemas';
import { DEFAULT_API_KEY, bearer, expectApiError, startTestServer, useTestServer } from '../support/api-test-server';
import { httpClient } from '../support/https-client';

// The node server under the API: TLS on one port, plain HTTP refused in plain HTTP, the body limit.

const t = useTestServer({}, { reset: false });

const LIMIT = 1024 * 1024;

/** A create body of exactly `size` bytes: valid fields plus an unknown padding field (tolerated without --strict). */
function createBodyOfSize(size: number): string {
  const head = '{"tin":"76920415-6","country":"CL","padding":"';
  const tail = '"}';
  return `${head}${'x'.repeat(size - head.length - tail.length)}${tail}`;
}

test('the served certificate verifies for 127.0.0.1, and a client that does not trust it is refused by TLS', async () => {
  expect(t.server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(t.server.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
  expect((await t.call('/_mock/health')).status).toBe(200);
  const untrusted = new Promise<string>((resolve) => {
    const outgoing = httpsRequest({ host: '127.0.0.1', port: t.server.port, path: '/_mock/health', agent: false }, () => resolve('answered'));
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    outgoing.end();
  });
  expect(await untrusted).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/);
});

test('plain HTTP to the HTTPS port is answered in plain HTTP with 400 https_required in the error shape', async () => {
  const plain = httpClient({ baseUrl: `http://127.0.0.1:${t.server.port}`, ca: null });
  try {
    const answer = await plain.request('/api/v2/webhook_endpoints', { headers: bearer(DEFAULT_API_KEY) });
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    const { error } = ApiError.parse(answer.json());
    expect(error).toMatchObject({ code: 'https_required', status: 400 });
    expect(error.message).toContain('--http');
  } finally {
    plain.close();
  }
  expect((await t.call('/_mock/health')).status).toBe(200);
});

// Finding: node-server.ts writes the raw answer without an x-request-id header (its body says req_plain_http).
test('the plain-HTTP answer carries an x-request-id header equal to its request_id', async () => {
  const plain = httpClient({ baseUrl: `http://127.0.0.1:${t.server.port}`, ca: null });
  try {
    expectApiError(await plain.request('/_mock/health'), 400, 'https_required');
  } finally {
    plain.close();
  }
});

test('a server started with http: true serves plain HTTP without https_required', async () => {
  const plain = await startTestServer({ http: true });
  try {
    expect(plain.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(plain.server.certificate).toBeNull();
    expect((await plain.get('/api/v2/webhook_endpoints')).status).toBe(200);
  } finally {
    await plain.close();
  }
});

test('a body of exactly 1 MiB is read, and one byte more answers 413 payload_too_large', async () => {
  const headers = { ...bearer(DEFAULT_API_KEY), 'content-type': 'application/json' };
  const atLimit = await t.call('/api/v2/entity_validations', { method: 'POST', headers, body: createBodyOfSize(LIMIT) });
  expect(atLimit.status).toBe(201);
  const over = await t.call('/api/v2/entity_validations', { method: 'POST', headers, body: createBodyOfSize(LIMIT + 1) });
  const error = expectApiError(over, 413, 'payload_too_large');
  expect(error.message).toContain(String(LIMIT));
});

test('after bodies far over the limit the server stays healthy and keeps answering', async () => {
  const headers = { ...bearer(DEFAULT_API_KEY), 'content-type': 'application/json' };
  const answers = await Promise.all(
    [1, 2, 3].map(() => t.call('/api/v2/entity_validations', { method: 'POST', headers, body: Buffer.alloc(5 * LIMIT, 0x20) })),
  );
  for (const answer of answers) expectApiError(answer, 413, 'payload_too_large');
  expect((await t.call('/_mock/health')).status).toBe(200);
  expect((await t.json('POST', '/api/v2/entity_validations', { tin: '76920415-6', country: 'CL' }, bearer(DEFAULT_API_KEY))).status).toBe(201);
});

test('many concurrent requests on kept-alive TLS connections each get their own request id', async () => {
  const answers = await Promise.all(Array.from({ length: 40 }, () => t.get('/api/v2/entity_validations/evl_nope')));
  const requestIds = answers.map((answer) => expectApiError(answer, 404, 'not_found').request_id);
  expect(new Set(requestIds).size).toBe(40);
});

// Finding: node's HTTP parser refuses methods it does not know before the core sees them, and the
// server answers a bare "400 Bad Request" with no body (node-server.ts has no clientError handler).
test('an unknown HTTP method is answered in the error shape', async () => {
  const answer = await t.call('/api/v2/entity_validations', { method: 'FROB', headers: bearer(DEFAULT_API_KEY) });
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(ApiError.safeParse(answer.json()).success).toBe(true);
});
