import { mockParts } from '../../src/mock/create-mock';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { DEFAULT_CLOCK_START, resolveStartTime } from '../../src/clock';
import { createMock } from '../../src/http';
import { spawnCli, stopSpawned } from '../support/built-cli';
import { httpClient, type HttpClient } from '../support/https-client';

// When the simulated clock starts (docs/fidelity.md rows 72, 73): the wall clock at start by default, the
// fixed 2026-01-15T10:00:00.000Z when a seed is given without --start-time, or --start-time.

const SECOND = 1000;

interface Served {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the base URL once the banner is printed. */
  ready: Promise<string>;
  exit: Promise<number | null>;
}

afterEach(stopSpawned);

/** `bvs-mock serve --port 0 --http --clock manual ARGS`, with only the given BVS_MOCK_* variables. */
function serve(args: string[], env: Record<string, string> = {}): Served {
  const child = spawnCli(['serve', '--port', '0', '--http', '--clock', 'manual', ...args], env);
  let stdout = '';
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = / listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exit.then((code) => reject(new Error(`bvs-mock exited with ${code} before its banner: ${stderr}`)));
  });
  ready.catch(() => undefined);
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { child, stdout: () => stdout, stderr: () => stderr, ready, exit };
}

interface ClockView {
  now: string;
  started_at: string;
}

async function withClient<T>(served: Served, use: (client: HttpClient) => Promise<T>): Promise<T> {
  const client = httpClient({ baseUrl: await served.ready, ca: null });
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

const clockOf = async (client: HttpClient) => (await client.request('/_mock/clock')).json<ClockView>();

test('the clock starts at the wall-clock time by default, not months away', async () => {
  const before = Math.floor(Date.now() / SECOND) * SECOND;
  const served = serve([]);
  const { clock, token } = await withClient(served, async (client) => ({
    clock: await clockOf(client),
    token: (
      await client.request('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=default_client&client_secret=default_secret',
      })
    ).json<{ created_at: number }>(),
  }));
  const after = Date.now();
  const started = Date.parse(clock.started_at);
  expect(started).toBeGreaterThanOrEqual(before);
  expect(started).toBeLessThanOrEqual(after);
  expect(started % SECOND).toBe(0);
  expect(token.created_at * SECOND).toBe(started);
  expect(served.stdout()).toMatch(/simulated time starts \S+ \(the wall clock at start/);
});

test('--seed without --start-time starts at the fixed instant', async () => {
  const served = serve(['--seed', '7']);
  const clock = await withClient(served, clockOf);
  expect(clock.started_at).toBe('2026-01-15T10:00:00.000Z');
  expect(served.stdout()).toMatch(/simulated time starts 2026-01-15T10:00:00\.000Z \(fixed, as --seed was given/);
});

test('--start-time chooses the start, and POST /_mock/reset returns to it after the clock moved', async () => {
  const served = serve(['--start-time', '2030-06-01T09:30:00-04:00', '--seed', '7']);
  const clock = await withClient(served, async (client) => {
    const advanced = await client.request('/_mock/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seconds":3600}',
    });
    expect(advanced.status).toBe(200);
    expect((await clockOf(client)).now).toBe('2030-06-01T14:30:00.000Z');
    expect((await client.request('/_mock/reset', { method: 'POST' })).status).toBe(200);
    return clockOf(client);
  });
  expect(clock).toMatchObject({ started_at: '2030-06-01T13:30:00.000Z', now: '2030-06-01T13:30:00.000Z' });
});

test('BVS_MOCK_START_TIME=now starts at the wall clock even with a seed', async () => {
  const before = Math.floor(Date.now() / SECOND) * SECOND;
  const served = serve(['--seed', '7'], { BVS_MOCK_START_TIME: 'now' });
  const started = Date.parse((await withClient(served, clockOf)).started_at);
  expect(started).toBeGreaterThanOrEqual(before);
  expect(started).toBeLessThanOrEqual(Date.now());
});

test.each([
  ['--start-time', 'yesterday'],
  ['--start-time', '2026-02-30T10:00:00Z'],
  ['--start-time', '2026-01-15T10:00:00'],
])('%s with a bad value (%s) stops start-up with a clear error', async (flag, value) => {
  const served = serve([flag, value]);
  expect(await served.exit).toBe(1);
  expect(served.stdout()).not.toContain('listening on');
  expect(served.stderr()).toContain(`--start-time <time>' argument '${value}' is invalid`);
  expect(served.stderr()).toContain('must be now, or an ISO 8601 date and time with Z or an offset, like 2026-01-15T10:00:00Z');
});

test('BVS_MOCK_START_TIME with a bad value stops start-up naming the variable, the value and the forms', async () => {
  const served = serve([], { BVS_MOCK_START_TIME: 'soon' });
  expect(await served.exit).toBe(1);
  expect(served.stderr()).toContain("--start-time <time>' value 'soon' from env 'BVS_MOCK_START_TIME' is invalid");
  expect(served.stderr()).toContain('must be now, or an ISO 8601');
});

test('createMock starts at the wall clock by default, at the fixed instant with a seed, and at startTime when given', () => {
  const wallNow = () => Date.parse('2026-11-25T18:30:15.750Z');
  const mocks = [
    createMock({ clock: 'manual', wallClock: { wallNow } }),
    createMock({ clock: 'manual', seed: 3 }),
    createMock({ clock: 'manual', startTime: '2027-03-04' }),
  ];
  try {
    const [unseeded, seeded, chosen] = mocks.map((mock) => mockParts(mock).world.clock.describe().started_at);
    // The wall clock at start, rounded down to the whole second (docs/fidelity.md row 72).
    expect(unseeded).toBe('2026-11-25T18:30:15.000Z');
    expect(seeded).toBe(DEFAULT_CLOCK_START);
    expect(chosen).toBe('2027-03-04T00:00:00.000Z');
  } finally {
    for (const mock of mocks) mock.dispose();
  }
});

test('createMock with a bad startTime throws naming the option, the value and the forms', () => {
  expect(() => createMock({ startTime: '15/01/2026' })).toThrow(
    'bvs-mock: the start time (--start-time, BVS_MOCK_START_TIME) "15/01/2026" is not valid: use now, or an ISO 8601 date and time with Z or an offset',
  );
});

test('resolveStartTime reads now once, rounded down to the second, and refuses years a 100-year clock cannot hold', () => {
  expect(resolveStartTime({ seeded: false, wallNow: () => 1_800_000_000_999 })).toBe(1_800_000_000_000);
  expect(resolveStartTime({ startTime: 'now', seeded: true, wallNow: () => 1_800_000_000_500 })).toBe(1_800_000_000_000);
  expect(resolveStartTime({ seeded: true })).toBe(Date.parse(DEFAULT_CLOCK_START));
  expect(resolveStartTime({ startTime: '2026-01-15T10:00:00.250Z', seeded: false })).toBe(Date.parse('2026-01-15T10:00:00.250Z'));
  expect(resolveStartTime({ startTime: '9899-12-31T00:00:00Z', seeded: false })).toBe(Date.parse('9899-12-31T00:00:00Z'));
  for (const bad of ['9900-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '2026-01-15T24:00:00Z', '', 'NOW']) {
    expect(() => resolveStartTime({ startTime: bad, seeded: false })).toThrow(/is not valid: use now, or an ISO 8601/);
  }
});
