import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/http';
import { renderDrift } from '../../src/proxy/drift-report';
import { DriftAnswer } from '../../src/schemas';
import { runCli, spawnCli, stopSpawned } from '../support/built-cli';
import { freePort } from '../support/free-port';
import { httpClient } from '../support/https-client';
import { expectValidJunit, HAVE_XMLLINT } from '../support/junit-schema';

// `bvs-mock proxy` as users run it: a bad --upstream is refused with exit 2 before anything listens; the drift is
// answered live and written at exit (SIGTERM), its format from the file's extension or --report-format.

afterEach(stopSpawned);

test.each([
  ['not a url', 'not a URL'],
  ['ftp://127.0.0.1/', 'ftp: is not HTTP'],
  ['https://user:pass@127.0.0.1/', 'carries credentials'],
])('a bad --upstream (%s) is a clear error, exit 2', async (upstream, why) => {
  const run = await runCli(['proxy', '--upstream', upstream, '--port', '0']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`bvs-mock proxy: --upstream ${upstream}: `);
  expect(run.stderr).toContain(why);
  expect(run.stdout).not.toContain('listening');
});

test('an --upstream where nothing listens is refused, exit 2', async () => {
  const port = await freePort();
  const run = await runCli(['proxy', '--upstream', `https://127.0.0.1:${port}`, '--port', '0']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`);
});

test('the drift is answered live behind the control token and written as Markdown at SIGTERM', async () => {
  const upstream = await startServer({ port: 0, clock: 'instant', seed: 7, tolerance: true });
  const dir = mkdtempSync(join(tmpdir(), 'bvs-mock-proxy-'));
  try {
    writeFileSync(join(dir, 'upstream.pem'), upstream.certificate!);
    const report = join(dir, 'drift.md');
    const child = spawnCli([
      'proxy',
      '--upstream',
      upstream.url,
      '--upstream-ca',
      join(dir, 'upstream.pem'),
      '--port',
      '0',
      '--http',
      '--control-token',
      'proxy-token-1',
      '--report',
      report,
    ]);
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        const match = / listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`bvs-mock proxy exited with ${code}: ${stdout}`)));
    });
    const client = httpClient({ baseUrl: url, ca: null });
    const answer = await client.request('/api/v2/webhook_endpoints', { headers: { authorization: 'Bearer test_key_default' } });
    expect(answer.status).toBe(200);
    expect((await client.request('/_mock/drift')).status).toBe(401);
    const live = DriftAnswer.parse(
      JSON.parse((await client.request('/_mock/drift', { headers: { authorization: 'Bearer proxy-token-1' } })).body.toString('utf8')),
    );
    expect(live.exchanges).toBe(1);
    expect(live.differences.map((d) => d.kind)).toEqual(expect.arrayContaining(['unknown_field']));
    client.close();
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const written = readFileSync(report, 'utf8');
    expect(written).toContain(`# Drift of ${upstream.url} from the contract`);
    expect(written).toContain('1 exchange(s) checked');
    for (const difference of live.differences) expect(written).toContain(`| listWebhookEndpoints | answer | ${difference.kind} | \`${difference.path}\``);
    expect(written).not.toContain('test_key_default');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await upstream.close();
  }
});

(HAVE_XMLLINT ? test : test.skip)('the drift as JUnit follows the Ant JUnit schema, a failing case per difference', () => {
  const drift: DriftAnswer = {
    exchanges: 3,
    differences_omitted: 0,
    differences: [
      {
        operation: 'getEntityValidation',
        side: 'answer',
        kind: 'unseen_value',
        path: '$.status',
        expected: 'one of created',
        actual: '"in_progress"',
        row: 89,
        count: 2,
        first_request_id: 'req_000002',
      },
    ],
  };
  const xml = renderDrift(drift, 'junit', 'https://sandbox.example.com', new Date('2026-01-15T10:00:00Z'));
  expectValidJunit(xml);
  expect(xml).toContain('<failure message="$.status: the contract says one of created; the upstream sent &quot;in_progress&quot;" type="unseen_value">');
  expectValidJunit(renderDrift({ exchanges: 0, differences_omitted: 0, differences: [] }, 'junit', 'https://sandbox.example.com', new Date()));
});
