import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { stopSpawned } from '../support/built-cli';
import { httpClient, type HttpClient } from '../support/https-client';
import { serve, urlOf, type Served } from '../support/spawned-serve';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// `--state-file F`: a shared instance restarted (SIGTERM, then the same command) keeps every session, endpoint,
// delivery record and retry still due, and the retries fire on their schedule (docs/fidelity.md row 119).

let scratch: string;
let receiver: WebhookReceiver;
beforeEach(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'bvs-mock-state-'));
  // Every delivery fails: the first attempt at once, then retries 15 s, then 45 s after it (spec §6).
  receiver = await startWebhookReceiver({ respond: () => 500 });
});
afterEach(async () => {
  await stopSpawned();
  await receiver.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface Running {
  served: Served;
  client: HttpClient;
  json<T>(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: T }>;
}

async function start(stateFile: string, extra: string[] = []): Promise<Running> {
  const served = serve(['--port', '0', '--http', '--clock', 'manual', '--quiet', '--allow-http-webhooks', '--state-file', stateFile, ...extra]);
  const client = httpClient({ baseUrl: urlOf(await served.banner).origin, ca: null });
  return {
    served,
    client,
    async json<T>(method: string, path: string, body?: unknown, key?: string) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) };
      const answer = await client.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: answer.status, body: answer.text() === '' ? (undefined as T) : answer.json<T>() };
    },
  };
}

async function stop(running: Running): Promise<string> {
  running.client.close();
  running.served.child.kill('SIGTERM');
  expect(await running.served.exit).toEqual({ code: 0, signal: null });
  return running.served.stdout();
}

interface Attempt {
  at: string;
  response_code: number | null;
}

test('SIGTERM then the same command with --state-file: the session, its endpoint, records and pending retries are there, and the retries fire on schedule', async () => {
  const file = join(scratch, 'state.json');
  const first = await start(file);
  const made = await first.json<{ id: string; control_base: string; organizations: Array<{ api_keys: string[] }> }>('POST', '/_mock/sessions', {
    label: 'kept',
  });
  const session = made.body;
  const key = session.organizations[0]!.api_keys[0]!;
  const endpoint = await first.json('POST', `${session.control_base}/webhook_endpoints`, { name: 'failing', url: receiver.url });
  expect(endpoint.status).toBe(201);
  const created = await first.json<{ id: string }>('POST', '/api/v2/entity_validations', { tin: HAPPY_NO_PARTNERS, country: 'CL' }, key);
  expect(created.status).toBe(201);
  // 30 s: the first event (0:25) has failed once; its retry is due 15 s after its first attempt.
  await first.json('POST', `${session.control_base}/clock/advance`, { seconds: 30 });
  const before = (await first.json<{ events: Array<{ id: string; attempts: Attempt[] }> }>('GET', `${session.control_base}/events`)).body.events;
  expect(before[0]!.attempts.map((attempt) => attempt.response_code)).toEqual([500]);
  const firstAttemptAt = Date.parse(before[0]!.attempts[0]!.at);
  const said = await stop(first);
  expect(said).toMatch(/state saved to .*state\.json \(the default session and 1 other session\(s\), \d+ bytes\)/);
  expect(said).toMatch(/still pending and resume when bvs-mock starts again with --state-file/);
  expect(statSync(file).mode & 0o777).toBe(0o600);

  const second = await start(file);
  expect(second.served.stdout()).toMatch(/state restored from .*state\.json \(saved at [^)]+\): the default session and 1 other session\(s\)/);
  const listed = (await second.json<{ sessions: Array<{ id: string; label: string | null }> }>('GET', '/_mock/sessions')).body.sessions;
  expect(listed.map((entry) => [entry.id, entry.label])).toEqual([
    ['default', null],
    [session.id, 'kept'],
  ]);
  // The same API key reaches the same validation; the endpoint and the record are there.
  expect((await second.json('GET', `/api/v2/entity_validations/${created.body.id}`, undefined, key)).status).toBe(200);
  const endpoints = (await second.json<{ webhook_endpoints: Array<{ name: string }> }>('GET', `${session.control_base}/webhook_endpoints`)).body;
  expect(endpoints.webhook_endpoints.map((entry) => entry.name)).toEqual(['failing']);
  const received = receiver.received.length;
  await second.json('POST', `${session.control_base}/clock/advance`, { seconds: 20 });
  const after = (await second.json<{ events: Array<{ id: string; attempts: Attempt[] }> }>('GET', `${session.control_base}/events`)).body.events;
  const record = after.find((event) => event.id === before[0]!.id)!;
  // The retry fired after the restart, 15 s after the first attempt, as it would have without one.
  expect(record.attempts.map((attempt) => Date.parse(attempt.at) - firstAttemptAt).slice(0, 2)).toEqual([0, 15_000]);
  expect(receiver.received.length).toBeGreaterThan(received);
  await stop(second);
});

test('a state file that is not JSON, or of a newer format, stops start-up naming the file; a path that cannot be written stops it at once', async () => {
  const broken = join(scratch, 'broken.json');
  writeFileSync(broken, '{"format": "bvs-mock/server-state", "version"');
  const notJson = serve(['--port', '0', '--http', '--state-file', broken]);
  expect(await notJson.exit).toEqual({ code: 1, signal: null });
  expect(notJson.stderr()).toMatch(/--state-file .*broken\.json: the file is not JSON .*Move it away to start without it/);

  const newer = join(scratch, 'newer.json');
  writeFileSync(newer, JSON.stringify({ format: 'bvs-mock/server-state', version: 9 }));
  const refused = serve(['--port', '0', '--http', '--state-file', newer]);
  expect(await refused.exit).toEqual({ code: 1, signal: null });
  expect(refused.stderr()).toMatch(/--state-file .*newer\.json: this state file is format version 9, written by a newer bvs-mock; this one reads version 1/);
  // The file is left as it was: nothing overwrote it.
  expect(JSON.parse(readFileSync(newer, 'utf8'))).toEqual({ format: 'bvs-mock/server-state', version: 9 });

  const unwritable = serve(['--port', '0', '--http', '--state-file', join(scratch, 'no-such-dir', 'state.json')]);
  expect(await unwritable.exit).toEqual({ code: 1, signal: null });
  expect(unwritable.stderr()).toMatch(/--state-file .*no-such-dir\/state\.json: cannot save the state/);
});

test('saved every --state-interval seconds: after a kill -9, the restart has what the last save held', async () => {
  const file = join(scratch, 'state.json');
  const first = await start(file, ['--state-interval', '1']);
  const session = (await first.json<{ id: string }>('POST', '/_mock/sessions', { label: 'survives kill -9' })).body;
  // The save made at start holds no session; the next interval's does.
  for (let tries = 0; !readFileSync(file, 'utf8').includes(session.id); tries += 1) {
    if (tries > 200) throw new Error('the state file never held the session');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  first.client.close();
  first.served.child.kill('SIGKILL');
  await first.served.exit;
  const second = await start(file);
  const listed = (await second.json<{ sessions: Array<{ id: string; label: string | null }> }>('GET', '/_mock/sessions')).body.sessions;
  expect(listed.map((entry) => entry.label)).toEqual([null, 'survives kill -9']);
  await stop(second);
});
