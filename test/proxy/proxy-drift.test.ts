import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ZodType } from 'zod';
import { closedIssues } from '../../src/contract';
import { startServer, type ServerOptions, type StartedServer } from '../../src/http';
import { startProxy, type StartedProxy } from '../../src/http/start-proxy';
import type { Exchange } from '../../src/proxy/exchange';
import { DataSourceRunBatch, DataSourceRunRecords, DriftAnswer, EntityValidation, OAuthTokenResponse, WebhookEndpointList } from '../../src/schemas';
import { connectBvsMock, SCENARIOS, type BvsMockControl } from '../../src/testing';
import { httpClient, type HttpAnswer, type HttpClient } from '../support/https-client';

// bvs-mock proxy over a second bvs-mock as the upstream, all on 127.0.0.1: the same settings give no drift; a
// tolerant upstream, a slow one and one with another error body give exactly the differences planted.

const API_KEY = 'test_key_default';
const CLIENT = { id: 'default_client', secret: 'default_secret' };

interface Pair {
  upstream: StartedServer;
  proxy: StartedProxy;
  /** The client, pointed at the proxy. */
  client: HttpClient;
  /** The same client pointed at the upstream itself. */
  direct: HttpClient;
  control: BvsMockControl;
  /** Every exchange as the proxy hands it on (what a recording keeps). */
  exchanges: Exchange[];
  close(): Promise<void>;
}

async function pair(options: ServerOptions = {}, slowAnswerMs?: number): Promise<Pair> {
  const upstream = await startServer({ port: 0, clock: 'instant', seed: 7, ...options });
  const exchanges: Exchange[] = [];
  const proxy = await startProxy({
    upstream: new URL(upstream.url),
    upstreamCa: upstream.certificate!,
    port: 0,
    slowAnswerMs,
    onExchange: (exchange) => exchanges.push(exchange),
  });
  const client = httpClient({ baseUrl: proxy.url, ca: proxy.certificate });
  const direct = httpClient({ baseUrl: upstream.url, ca: upstream.certificate });
  const control = connectBvsMock(upstream.url, { ca: upstream.certificate! });
  return {
    upstream,
    proxy,
    client,
    direct,
    control,
    exchanges,
    async close() {
      client.close();
      direct.close();
      await proxy.close();
      await upstream.close();
    },
  };
}

const json = (answer: HttpAnswer) => JSON.parse(answer.body.toString('utf8')) as Record<string, any>;

/**
 * What a client does with each built-in scenario, through the proxy: a token, the endpoints, a validation created,
 * waited for, read, its batches and its runs' records read, an id that does not exist. Answers by request.
 */
async function playThrough({ client, control }: Pair): Promise<Array<{ path: string; answer: HttpAnswer }>> {
  const answers: Array<{ path: string; answer: HttpAnswer }> = [];
  const call = async (path: string, init: Parameters<HttpClient['request']>[1] = {}) => {
    const answer = await client.request(path, init);
    answers.push({ path, answer });
    return answer;
  };
  const form = `grant_type=client_credentials&client_id=${CLIENT.id}&client_secret=${CLIENT.secret}`;
  const token = json(await call('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }));
  const auth = { authorization: `Bearer ${token.access_token}` };
  await call('/api/v2/webhook_endpoints', { headers: auth });
  for (const name of Object.keys(SCENARIOS) as Array<keyof typeof SCENARIOS>) {
    const { tin, country } = SCENARIOS[name];
    const created = json(
      await call('/api/v2/entity_validations', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ tin, country }),
      }),
    );
    if (name === 'missingInputData') {
      await control.waitForEvent('data_source_run_batch.data_source_run.ready', { validationId: created.id });
      const read = json(await call(`/api/v2/entity_validations/${created.id}`, { headers: auth }));
      const waiting = read.data_source_run_batches[0].data_source_runs.find((run: { status: string }) => run.status === 'missing_input_data');
      await control.supplyInput(waiting.id);
    }
    await control.waitForSettled(created.id);
    const validation = json(await call(`/api/v2/entity_validations/${created.id}`, { headers: { authorization: `Bearer ${API_KEY}` } }));
    for (const batch of validation.data_source_run_batches as Array<{ id: string; data_source_runs: Array<{ id: string; status: string }> }>) {
      await call(`/api/v2/data_source_run_batches/${batch.id}`, { headers: auth });
      const run = batch.data_source_runs.find((candidate) => candidate.status === 'succeeded');
      if (run !== undefined) await call(`/api/v2/data_source_runs/${run.id}/records`, { headers: auth });
    }
  }
  await call('/api/v2/entity_validations/evl_01KF0000000000000000000000', { headers: auth });
  return answers;
}

/** The operation and schema of a successful answer, by its path. */
function kindOf(method: string, path: string): { operation: string; schema: ZodType } {
  if (path === '/oauth/token') return { operation: 'createOAuthToken', schema: OAuthTokenResponse };
  if (path === '/api/v2/webhook_endpoints') return { operation: 'listWebhookEndpoints', schema: WebhookEndpointList };
  if (path.endsWith('/records')) return { operation: 'getDataSourceRunRecords', schema: DataSourceRunRecords };
  if (path.startsWith('/api/v2/data_source_run_batches/')) return { operation: 'getDataSourceRunBatch', schema: DataSourceRunBatch };
  return { operation: method === 'POST' ? 'createEntityValidation' : 'getEntityValidation', schema: EntityValidation };
}

async function driftOf(proxy: StartedProxy): Promise<DriftAnswer> {
  const client = httpClient({ baseUrl: proxy.url, ca: proxy.certificate });
  try {
    const answer = await client.request('/_mock/drift');
    expect(answer.status).toBe(200);
    const drift = DriftAnswer.parse(json(answer));
    expect(drift).toEqual(proxy.drift.answer());
    return drift;
  } finally {
    client.close();
  }
}

test('over an upstream with the same settings, a client playing every built-in scenario through the proxy finds no drift', async () => {
  const p = await pair();
  try {
    const answers = await playThrough(p);
    expect(answers.length).toBeGreaterThan(20);
    // The client got real answers: a token, validations created, a 404 for an id that does not exist.
    expect(answers[0]!.answer.status).toBe(200);
    expect(answers.filter(({ answer }) => answer.status === 201)).toHaveLength(Object.keys(SCENARIOS).length);
    expect(answers.at(-1)!.answer.status).toBe(404);
    const drift = await driftOf(p.proxy);
    expect(drift.differences).toEqual([]);
    expect(drift.exchanges).toBe(answers.length);
  } finally {
    await p.close();
  }
});

test("the client gets the upstream's answers byte for byte: status, headers and body", async () => {
  const p = await pair();
  try {
    const created = json(
      await p.client.request('/api/v2/entity_validations', {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(SCENARIOS.happyPartners),
      }),
    );
    await p.control.waitForSettled(created.id);
    for (const path of [`/api/v2/entity_validations/${created.id}`, '/api/v2/webhook_endpoints', '/api/v2/entity_validations/evl_nope']) {
      const [through, direct] = [
        await p.client.request(path, { headers: { authorization: `Bearer ${API_KEY}` } }),
        await p.direct.request(path, { headers: { authorization: `Bearer ${API_KEY}` } }),
      ];
      expect({ path, status: through.status }).toEqual({ path, status: direct.status });
      // Each request has its own id (in the header, and in an error's body); all else is the upstream's, byte for byte.
      const id = (answer: HttpAnswer) => String(answer.headers['x-request-id']);
      expect(through.body.toString('latin1').replaceAll(id(through), 'ID')).toBe(direct.body.toString('latin1').replaceAll(id(direct), 'ID'));
      if (through.status === 200) expect(through.body.equals(direct.body)).toBe(true);
      const headers = (answer: HttpAnswer) => {
        const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'x-request-id': _id, ...rest } = answer.headers;
        return rest;
      };
      expect(headers(through)).toEqual(headers(direct));
    }
    // Without credentials the upstream refuses, and the proxy passes the refusal on.
    const refused = await p.client.request(`/api/v2/entity_validations/${created.id}`);
    expect(refused.status).toBe(401);
  } finally {
    await p.close();
  }
});

test('over a tolerant upstream, the drift names exactly the unknown fields and unseen values planted, by operation and JSON path', async () => {
  const plain = await pair();
  const tolerant = await pair({ tolerance: true });
  try {
    const expected = await playThrough(plain);
    const got = await playThrough(tolerant);
    expect(got.map(({ path }) => path)).toEqual(expected.map(({ path }) => path));
    // What was planted: what the closed check refuses in the tolerant answers and not in the plain ones.
    const planted = new Set<string>();
    got.forEach(({ path, answer }, index) => {
      const method = path === '/oauth/token' || (path === '/api/v2/entity_validations' && index > 0) ? 'POST' : 'GET';
      if (answer.status >= 300) return;
      const { operation, schema } = kindOf(method, path);
      expect(closedIssues(schema, json(expected[index]!.answer))).toEqual([]);
      for (const issue of closedIssues(schema, json(answer))) planted.add(`${operation} ${issue.path.replace(/\[\d+\]/g, '[*]')} ${issue.code}`);
    });
    expect(planted.size).toBeGreaterThan(10);
    const drift = await driftOf(tolerant.proxy);
    expect(new Set(drift.differences.map((d) => `${d.operation} ${d.path} ${d.kind}`))).toEqual(planted);
    expect(drift.differences.every((d) => d.side === 'answer' && d.row === 89)).toBe(true);
    const status = drift.differences.find((d) => d.operation === 'getEntityValidation' && d.path === '$.status');
    expect(status).toMatchObject({ kind: 'unseen_value', expected: expect.stringContaining('created') });
    expect(['"in_progress"', '"completed"']).toContain(status!.actual);
    expect((await driftOf(plain.proxy)).differences).toEqual([]);
  } finally {
    await plain.close();
    await tolerant.close();
  }
});

test('an upstream slower than --slow-ms is drift at $time, per operation', async () => {
  const p = await pair({}, 200);
  try {
    await p.control.addFault({ kind: 'api_latency', ms: 300 });
    const answer = await p.client.request('/api/v2/webhook_endpoints', { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(answer.status).toBe(200);
    const drift = await driftOf(p.proxy);
    expect(drift.differences).toEqual([
      expect.objectContaining({ operation: 'listWebhookEndpoints', kind: 'slow_answer', path: '$time', expected: 'at most 200 ms', count: 1 }),
    ]);
  } finally {
    await p.close();
  }
});

test('an upstream whose error body and status differ from the document: the proxy names the status, the code and the fields', async () => {
  const upstream: Server = createServer((request, response) => {
    request.resume();
    response.writeHead(418, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'resource_missing', message: 'No such validation.', status: 418 } }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const proxy = await startProxy({ upstream: new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`), port: 0, http: true });
  const client = httpClient({ baseUrl: proxy.url, ca: null });
  try {
    const answer = await client.request('/api/v2/entity_validations/evl_01KF0000000000000000000000', { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(answer.status).toBe(418);
    expect(json(answer).error.code).toBe('resource_missing');
    const drift = await driftOf(proxy);
    const named = drift.differences.map((d) => `${d.kind} ${d.path} ${d.actual}`);
    expect(named).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^undocumented_status \$status 418$/),
        expect.stringMatching(/^error_body \$\.error\.code "resource_missing"$/),
        expect.stringMatching(/^error_body \$\.error\.request_id \(absent\)$/),
        expect.stringMatching(/^error_body \$\.error\.issues \(absent\)$/),
      ]),
    );
    expect(drift.differences.find((d) => d.kind === 'undocumented_status')!.row).toBe(80);
    expect(drift.differences.every((d) => d.operation === 'getEntityValidation')).toBe(true);
  } finally {
    client.close();
    await proxy.close();
    await new Promise((resolve) => upstream.close(resolve));
  }
});

test('credentials are never in the drift nor in the exchanges: the Authorization header, a client secret, an access token and secret-named fields are left out or masked', async () => {
  const p = await pair();
  try {
    const good = json(
      await p.client.request('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${CLIENT.id}&client_secret=${CLIENT.secret}`,
      }),
    );
    await p.client.request('/api/v2/entity_validations', {
      method: 'POST',
      headers: { authorization: `Bearer ${good.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tin: SCENARIOS.happyPartners.tin, country: 'CL', api_token: 'hunter2-secret' }),
    });
    await p.client.request('/api/v2/webhook_endpoints', { headers: { authorization: `Bearer ${API_KEY}` } });
    const drift = await driftOf(p.proxy);
    const text = JSON.stringify(drift);
    for (const secret of [CLIENT.secret, 'hunter2-secret', API_KEY, good.access_token as string]) expect(text).not.toContain(secret);
    // The difference is there, its value masked.
    expect(drift.differences).toEqual([
      expect.objectContaining({
        operation: 'createEntityValidation',
        side: 'request',
        kind: 'unknown_field',
        path: '$.api_token',
        actual: '"(masked)"',
        row: null,
      }),
    ]);
    // Nor in the exchanges a recording keeps: the Authorization header's scheme alone, the form's secret and the answer's token masked.
    expect(p.exchanges.map((exchange) => exchange.operation)).toEqual(['createOAuthToken', 'createEntityValidation', 'listWebhookEndpoints']);
    const recorded = JSON.stringify(p.exchanges);
    for (const secret of [CLIENT.secret, 'hunter2-secret', API_KEY, good.access_token as string]) expect(recorded).not.toContain(secret);
    expect(p.exchanges[0]!.requestBody).toContain('client_secret=%28masked%29');
    expect(p.exchanges.map((exchange) => exchange.requestHeaders.authorization)).toEqual([undefined, 'Bearer (masked)', 'Bearer (masked)']);
  } finally {
    await p.close();
  }
});
