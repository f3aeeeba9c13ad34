import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { startWebhookReceiver } from '../../src/testing';
import { stopSpawned } from '../support/built-cli';
import { serve, urlOf } from '../support/spawned-serve';
import { httpClient, type HttpAnswer } from '../support/https-client';
import { freePort } from '../support/free-port';
import { openEventStream } from '../support/event-stream';

// `bvs-mock serve`, the built command line as users run it (docs/design.md, Command line): the banner,
// readiness, clean stop, start-up errors, and the environment variables.

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'bvs-mock-cli-'));
});

afterEach(stopSpawned);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * The certificate the server presents, read once without verification so the
 * request after it can verify against it for real (trust on first use, as a
 * developer does with `curl -k` once and then pins the certificate).
 */
function presentedCertificate(url: URL): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolve(
        `-----BEGIN CERTIFICATE-----\n${raw
          .toString('base64')
          .match(/.{1,64}/g)!
          .join('\n')}\n-----END CERTIFICATE-----\n`,
      );
    });
    socket.once('error', reject);
  });
}

async function health(url: URL): Promise<HttpAnswer> {
  const client = httpClient({ baseUrl: url.origin, ca: url.protocol === 'https:' ? await presentedCertificate(url) : null });
  try {
    return await client.request('/_mock/health');
  } finally {
    client.close();
  }
}

test('serve prints one block: URL, API key, OAuth client, legacy token, control API, clock and the scenarios with their TINs', async () => {
  const served = serve(['--port', '0', '--clock', 'manual']);
  const url = urlOf(await served.banner);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const banner = served.stdout();
  expect(banner).toMatch(new RegExp(`^bvs-mock \\S+ listening on ${url.origin} \\(HTTPS`));
  expect(banner).toContain(`${url.origin}/api/v2`);
  expect(banner).toMatch(/API key\s+test_key_default/);
  expect(banner).toMatch(/OAuth client\s+default_client \/ default_secret/);
  // The legacy-model webhooks' token (spec §5.6), printed so a legacy receiver knows what to check.
  expect(banner).toMatch(/Legacy token\s+tok_legacy_default/);
  expect(banner).toContain(`${url.origin}/_mock`);
  expect(banner).toMatch(/Clock\s+manual, simulated time starts \d{4}-\d\d-\d\dT/);
  for (const [name, tin] of [
    ['happy-partners', '76920415-6'],
    ['partner-definitive-error', '76086428-5'],
    ['cl-formation', '76265310-9'],
    ['missing-input-data', '77049576-8'],
    ['information-request', '76842059-9'],
  ]) {
    expect(banner).toMatch(new RegExp(`${name}\\s+${tin}`));
  }
});

test('GET /_mock/health answers soon after spawn, and SIGTERM stops the server with exit code 0 and "stopped"', async () => {
  const served = serve(['--port', '0']);
  const url = urlOf(await served.banner);
  let answer: HttpAnswer | undefined;
  // Asks until it answers: a server that never does fails by the test's timeout.
  while (answer?.status !== 200) answer = await health(url).catch(() => undefined);
  const readyAfter = Date.now() - served.spawnedAt;
  process.stdout.write(`bvs-mock serve: /_mock/health answered ${readyAfter} ms after spawn (target: 1000 ms)\n`);
  expect(answer?.status).toBe(200);
  served.child.kill('SIGTERM');
  expect(await served.exit).toEqual({ code: 0, signal: null });
  expect(served.stdout()).toMatch(/stopped \(SIGTERM\)/);
});

test('a bad configuration file stops start-up with exit code 1 naming the file, the JSON path and the reason', async () => {
  const file = join(scratch, 'bad-config.yaml');
  writeFileSync(file, 'organizations:\n  - id: "not valid!"\n    api_keys: [""]\n');
  const served = serve(['--port', '0', '--config', file]);
  expect((await served.exit).code).toBe(1);
  expect(served.stdout()).not.toContain('listening on');
  expect(served.stderr()).toContain(`bvs-mock: ${file}: $.organizations[0].id: must be letters`);
  expect(served.stderr()).toContain(`bvs-mock: ${file}: $.organizations[0].api_keys[0]: an API key must not be empty`);
});

test('a configuration file that does not exist stops start-up with exit code 1 naming it', async () => {
  const file = join(scratch, 'missing.yaml');
  const served = serve(['--port', '0', '--config', file]);
  expect((await served.exit).code).toBe(1);
  expect(served.stderr()).toContain(`bvs-mock: ${file}: $: cannot read the file (ENOENT)`);
});

test('a --port in use stops start-up with exit code 1 and a message saying what to do', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
  const { port } = blocker.address() as AddressInfo;
  try {
    const served = serve(['--port', String(port)]);
    expect((await served.exit).code).toBe(1);
    expect(served.stderr()).toContain(`bvs-mock: port ${port} on 127.0.0.1 is in use; choose another with --port`);
  } finally {
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
  }
});

test('BVS_MOCK_PORT chooses the port when --port is not given', async () => {
  const port = await freePort();
  const served = serve([], { BVS_MOCK_PORT: String(port) });
  const url = urlOf(await served.banner);
  expect(Number(url.port)).toBe(port);
  expect((await health(url)).status).toBe(200);
});

test('BVS_MOCK_HTTP=true serves plain HTTP', async () => {
  const served = serve(['--port', '0'], { BVS_MOCK_HTTP: 'true' });
  const url = urlOf(await served.banner);
  expect(url.protocol).toBe('http:');
  expect((await health(url)).status).toBe(200);
});

// Finding: commander sets a boolean option whenever its variable is defined, whatever its value
// (serve-flags.ts), so BVS_MOCK_HTTP=false (and BVS_MOCK_STRICT=false) turn the option on.
test('BVS_MOCK_HTTP=false keeps HTTPS', async () => {
  const served = serve(['--port', '0'], { BVS_MOCK_HTTP: 'false' });
  expect(urlOf(await served.banner).protocol).toBe('https:');
});

test('BVS_MOCK_TOKEN_CLOCK=wall puts OAuth tokens on the wall clock, said in the banner; another value stops start-up naming the flag', async () => {
  const served = serve(['--port', '0', '--http'], { BVS_MOCK_TOKEN_CLOCK: 'wall' });
  await served.banner;
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(served.stdout()).toContain('OAuth access tokens expire on the wall clock (--token-clock wall)');
  const refused = serve(['--port', '0', '--token-clock', 'real']);
  expect((await refused.exit).code).toBe(1);
  expect(refused.stderr()).toMatch(/--token-clock <clock>' argument 'real' is invalid\. must be simulated or wall/);
});

test('BVS_MOCK_TLS_HOSTNAMES names the certificate, --write-certificate writes it on start, and a bad name stops start-up', async () => {
  const file = join(scratch, 'served.pem');
  const served = serve(['--port', '0', '--write-certificate', file], { BVS_MOCK_TLS_HOSTNAMES: 'bvs,bvs.ci.internal' });
  const url = urlOf(await served.banner);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const pem = readFileSync(file, 'utf8');
  const lines = (text: string) => text.replace(/\r\n/g, '\n').trim();
  expect(lines(pem)).toBe(lines(await presentedCertificate(url)));
  expect(new X509Certificate(pem).subjectAltName).toContain('DNS:bvs, DNS:bvs.ci.internal');
  expect(served.stdout()).toMatch(
    /Certificate\s+https:\/\/127\.0\.0\.1:\d+\/_mock\/certificate {2}\(valid for localhost, bvs, bvs\.ci\.internal, 127\.0\.0\.1/,
  );
  const refused = serve(['--port', '0', '--tls-hostnames', 'bad name']);
  expect((await refused.exit).code).toBe(1);
  expect(refused.stderr()).toContain('"bad name" is not a host name or IP address');
});

describe('the log a container needs', () => {
  async function servedWithTraffic(args: string[], env: Record<string, string> = {}): Promise<string[]> {
    const receiver = await startWebhookReceiver();
    try {
      const served = serve(['--port', '0', '--http', '--webhook-url', receiver.url, '--allow-http-webhooks', ...args], env);
      const url = urlOf(await served.banner);
      const client = httpClient({ baseUrl: url.origin, ca: null });
      await client.request('/api/v2/entity_validations', {
        method: 'POST',
        headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
        body: JSON.stringify({ tin: '76354771-K', country: 'CL', nickname: 'x' }),
      });
      await client.request('/_mock/clock/run', { method: 'POST' });
      client.close();
      served.child.kill('SIGTERM');
      await served.exit;
      return served.stdout().split('\n').filter(Boolean);
    } finally {
      await receiver.close();
    }
  }

  test('by default, one readable line per request (with its violations) and per delivery attempt, and the modes in the start block', async () => {
    const lines = await servedWithTraffic(['--strict']);
    expect(lines).toContainEqual(expect.stringMatching(/^\s+Modes\s+HTTP \(--http\), clock instant, strict on, tolerance off, tokens on the simulated clock$/));
    expect(lines.filter((line) => / POST {3}\/api\/v2\/entity_validations 422 [\d.]+ ms {2}req_\d+/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('DELIVER '))).toEqual([]);
    const relaxed = await servedWithTraffic([]);
    expect(relaxed.find((line) => line.includes('POST   /api/v2/entity_validations 201'))).toMatch(/1 violation: \$\.nickname unknown_field$/);
    expect(relaxed.filter((line) => / DELIVER data_source_run_batch\.ready -> http:\/\/127\.0\.0\.1:\d+\/hooks 200 /.test(line))).toHaveLength(1);
  });

  test('--log-format json: every line is one JSON object with stable field names, start to stop', async () => {
    const lines = await servedWithTraffic(['--log-format', 'json']);
    const objects = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects[0]).toMatchObject({
      kind: 'start',
      version: expect.any(String),
      modes: { transport: 'http', clock: 'instant', strict: false, tolerance: false },
    });
    expect(objects.at(-1)).toMatchObject({ kind: 'stop', signal: 'SIGTERM', pending_deliveries: 0 });
    const request = objects.find((object) => object.kind === 'request' && object.path === '/api/v2/entity_validations')!;
    expect(Object.keys(request).sort()).toEqual(
      ['control', 'duration_ms', 'kind', 'method', 'operation', 'organization_id', 'path', 'request_id', 'simulated_at', 'status', 'time', 'violations'].sort(),
    );
    expect(request).toMatchObject({ method: 'POST', status: 201, violations: 1, control: false });
    const delivery = objects.find((object) => object.kind === 'delivery')!;
    expect(Object.keys(delivery).sort()).toEqual(
      [
        'attempt',
        'delivery_status',
        'duration_ms',
        'error',
        'event_id',
        'kind',
        'next_attempt_at',
        'simulated_at',
        'status',
        'time',
        'trigger',
        'type',
        'url',
      ].sort(),
    );
  });

  test('--quiet (BVS_MOCK_QUIET=true) keeps the start block and the stop line, and no line per request or delivery', async () => {
    const lines = await servedWithTraffic([], { BVS_MOCK_QUIET: 'true' });
    expect(lines.some((line) => line.includes(' listening on '))).toBe(true);
    expect(lines.at(-1)).toBe('bvs-mock: stopped (SIGTERM)');
    expect(lines.filter((line) => /^\d{4}-\d\d-\d\dT/.test(line))).toEqual([]);
  });
});

test('SIGTERM with webhook deliveries still pending says how many will not be sent', async () => {
  const receiver = await startWebhookReceiver({ respond: () => 500 });
  try {
    const served = serve(['--port', '0', '--http', '--clock', 'manual', '--webhook-url', receiver.url]);
    const url = urlOf(await served.banner);
    const client = httpClient({ baseUrl: url.origin, ca: null });
    const created = await client.request('/api/v2/entity_validations', {
      method: 'POST',
      headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
      body: JSON.stringify({ tin: '76920415-6', country: 'CL' }),
    });
    expect(created.status).toBe(201);
    // The first events fire and their deliveries fail: each now waits for a retry.
    expect(
      (await client.request('/_mock/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seconds": 30}' })).status,
    ).toBe(200);
    await receiver.waitFor(1, 5_000);
    const pending = (await client.request('/_mock/events?status=pending')).json<{ events: unknown[] }>().events.length;
    expect(pending).toBeGreaterThan(0);
    client.close();
    served.child.kill('SIGTERM');
    expect(await served.exit).toEqual({ code: 0, signal: null });
    expect(served.stdout()).toContain(
      `stopped (SIGTERM); ${pending} webhook deliver${pending === 1 ? 'y was' : 'ies were'} still pending and will not be sent`,
    );
  } finally {
    await receiver.close();
  }
});

test('--report writes the contract report when bvs-mock stops: JUnit XML for .xml, with the one wrong request failing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bvs-mock-report-'));
  try {
    const file = join(dir, 'bvs-mock.xml');
    const served = serve(['--port', '0', '--http', '--report', file]);
    const url = urlOf(await served.banner);
    const client = httpClient({ baseUrl: url.origin, ca: null });
    const wrong = await client.request('/api/v2/entity_validations', {
      method: 'POST',
      headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
      body: JSON.stringify({ tin: '76920415-6', country: 'CL', nickname: 'x' }),
    });
    expect(wrong.status).toBe(201);
    client.close();
    served.child.kill('SIGTERM');
    expect(await served.exit).toEqual({ code: 0, signal: null });
    expect(served.stdout()).toContain(`contract report (junit) written to ${file}`);
    const xml = readFileSync(file, 'utf8');
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('$.nickname unknown_field');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--report to a file that cannot be written says why and exits 1, after stopping', async () => {
  const served = serve(['--port', '0', '--http', '--report', join(tmpdir(), 'no-such-directory-bvs-mock', 'report.json')]);
  await served.banner;
  served.child.kill('SIGTERM');
  expect(await served.exit).toEqual({ code: 1, signal: null });
  expect(served.stderr()).toMatch(/--report .*report\.json: cannot write the contract report: ENOENT/);
  expect(served.stdout()).toContain('stopped (SIGTERM)');
});

test('BVS_MOCK_MAX_VALIDATIONS and --max-journal-entries set the retention shown by /_mock/health', async () => {
  const served = serve(['--port', '0', '--max-journal-entries', '7'], { BVS_MOCK_MAX_VALIDATIONS: '12' });
  const url = urlOf(await served.banner);
  const answer = await health(url);
  expect(answer.json<{ retention: unknown }>().retention).toMatchObject({ max_validations: 12, journal: { max_entries: 7 } });
});

test('--max-pending-per-receiver and BVS_MOCK_MAX_RUN_WAIT set the receiver backlog cap shown by health and the bound of a clock run', async () => {
  const served = serve(['--port', '0', '--http', '--max-pending-per-receiver', '7'], { BVS_MOCK_MAX_RUN_WAIT: '3' });
  const url = urlOf(await served.banner);
  expect((await health(url)).json<{ deliveries: unknown }>().deliveries).toMatchObject({ max_pending_per_receiver: 7, suspended_receivers: 0 });
  const client = httpClient({ baseUrl: url.origin, ca: null });
  try {
    const run = await client.request('/_mock/clock/run', { method: 'POST' });
    expect(run.json<unknown>()).toMatchObject({ settled: true, max_wait_seconds: 3 });
  } finally {
    client.close();
  }
});

test.each([
  ['--max-run-wait', '0'],
  ['--max-run-wait', '86401'],
  ['--max-pending-per-receiver', '0'],
])('%s %s stops start-up naming the flag and its range', async (flag, value) => {
  const served = serve(['--port', '0', flag, value]);
  expect((await served.exit).code).not.toBe(0);
  expect(served.stderr()).toContain(`${flag} must be a whole number from 1 to`);
});

test('--max-stream-readers caps the readers of GET /_mock/stream, and a value over half the connections is refused at start', async () => {
  const served = serve(['--port', '0', '--http', '--max-stream-readers', '1']);
  const url = urlOf(await served.banner);
  const first = await openEventStream(url.origin, '/_mock/stream');
  try {
    expect(first.status).toBe(200);
    const second = await openEventStream(url.origin, '/_mock/stream');
    second.close();
    expect(second.status).toBe(503);
    expect(second.received()).toMatch(/1 change-stream reader .* is open/);
  } finally {
    first.close();
  }
  const refused = serve(['--port', '0', '--http'], { BVS_MOCK_MAX_STREAM_READERS: '300' });
  expect(await refused.exit).toEqual({ code: 1, signal: null });
  expect(refused.stderr()).toMatch(/--max-stream-readers must be a whole number from 1 to 256/);
});

test('BVS_MOCK_MAX_PAGE_BYTES cuts control list pages by size, and a budget under 1 KiB is refused at start', async () => {
  const served = serve(['--port', '0', '--http'], { BVS_MOCK_MAX_PAGE_BYTES: '1024' });
  const url = urlOf(await served.banner);
  const client = httpClient({ baseUrl: url.origin, ca: null });
  try {
    // Each answered request is an entry of the journal: twenty of them pass 1 KiB.
    for (let i = 0; i < 20; i += 1) await client.request('/api/v2/webhook_endpoints', { headers: { authorization: 'Bearer test_key_default' } });
    const page = (await client.request('/_mock/requests?limit=1000')).json<{ requests: unknown[]; cut_by_size: boolean; next_cursor: string | null }>();
    expect([page.cut_by_size, page.next_cursor === null, page.requests.length < 20]).toEqual([true, false, true]);
  } finally {
    client.close();
  }
  const refused = serve(['--port', '0', '--http', '--max-page-bytes', '100']);
  expect(await refused.exit).toEqual({ code: 1, signal: null });
  expect(refused.stderr()).toMatch(/--max-page-bytes must be a whole number from 1024 to 67108864/);
});

test('BVS_MOCK_MAX_SESSIONS and --session-ttl reach the sessions, and a limit out of range is refused at start', async () => {
  const served = serve(['--port', '0', '--http', '--session-ttl', '90'], { BVS_MOCK_MAX_SESSIONS: '1' });
  const url = urlOf(await served.banner);
  const client = httpClient({ baseUrl: url.origin, ca: null });
  const post = () => client.request('/_mock/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  try {
    const made = await post();
    expect(made.status).toBe(201);
    const { last_used_at, expires_at } = made.json<{ last_used_at: string; expires_at: string }>();
    expect(Date.parse(expires_at) - Date.parse(last_used_at)).toBe(90_000);
    const refused = await post();
    expect(refused.status).toBe(409);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('session_limit_reached');
  } finally {
    client.close();
  }
  const zero = serve(['--port', '0', '--http', '--max-sessions', '0']);
  expect(await zero.exit).toEqual({ code: 1, signal: null });
  expect(zero.stderr()).toMatch(/--max-sessions must be a whole number from 1 to 10000/);
});
