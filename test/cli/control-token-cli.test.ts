import { request as httpRequest } from 'node:http';
import { connect } from 'node:tls';
import { spawnCli, stopSpawned } from '../support/built-cli';
import { httpClient, type HttpAnswer } from '../support/https-client';

// `bvs-mock serve --control-token` and BVS_MOCK_CONTROL_TOKEN, through the built command line: the
// control API of a container on 0.0.0.0 was open to anyone who reached the port.

const TOKEN = 'ctl_cli_4e1d2c3b';

afterEach(stopSpawned);

interface Served {
  /** Everything printed on stdout until the line after the banner's "Try:" (the whole block). */
  banner: Promise<string>;
  exit: Promise<number | null>;
  stderr(): string;
}

/** Spawns `node bin/bvs-mock.js serve ARGS` with only the given BVS_MOCK_* variables set. */
function serve(args: string[], env: Record<string, string> = {}): Served {
  const child = spawnCli(['serve', '--port', '0', '--clock', 'manual', ...args], env);
  let stdout = '';
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (/\nTry: .*\n/.test(stdout)) resolve(stdout);
    });
    void exit.then((code) => reject(new Error(`bvs-mock exited with ${code} before its banner: ${stderr}`)));
  });
  banner.catch(() => undefined);
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { banner, exit, stderr: () => stderr };
}

function urlOf(banner: string): URL {
  const match = / listening on (https:\/\/127\.0\.0\.1:\d+)/.exec(banner);
  if (!match) throw new Error(`no URL in the banner: ${banner}`);
  return new URL(match[1]!);
}

/** The self-signed certificate the server presents, read once so that the requests after it verify against it. */
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

async function statuses(url: URL, calls: Array<[string, Record<string, string>]>): Promise<number[]> {
  const client = httpClient({ baseUrl: url.origin, ca: await presentedCertificate(url) });
  try {
    const answers: HttpAnswer[] = [];
    for (const [path, headers] of calls) answers.push(await client.request(path, { headers }));
    return answers.map((answer) => answer.status);
  } finally {
    client.close();
  }
}

test('BVS_MOCK_CONTROL_TOKEN locks the control API: 401 without or with a wrong token, 200 with it; health stays open', async () => {
  const served = serve([], { BVS_MOCK_CONTROL_TOKEN: TOKEN });
  const url = urlOf(await served.banner);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  expect(
    await statuses(url, [
      ['/_mock/clock', {}],
      ['/_mock/clock', bearer('wrong')],
      ['/_mock/clock', bearer(TOKEN)],
      ['/_mock/health', {}],
    ]),
  ).toEqual([401, 401, 200, 200]);
});

test('the banner says the control API is locked without printing the token', async () => {
  const served = serve(['--control-token', TOKEN]);
  const banner = await served.banner;
  expect(banner).toMatch(/Control API .*\n\s+locked: send Authorization: Bearer <the --control-token value>/);
  expect(banner).not.toContain(TOKEN);
});

test('without a control token the banner does not speak of a lock', async () => {
  const banner = await serve([]).banner;
  expect(banner).not.toContain('locked');
});

test('an empty BVS_MOCK_CONTROL_TOKEN stops start-up with exit code 1 instead of serving an open control API', async () => {
  const served = serve([], { BVS_MOCK_CONTROL_TOKEN: '' });
  expect(await served.exit).toBe(1);
  expect(served.stderr()).toContain('BVS_MOCK_CONTROL_TOKEN');
  expect(served.stderr()).toContain('must be printable characters without spaces');
});

test('the banner says the seed drawn at start and how to replay it (no --seed), or that pre-signed URLs use a key derived from --seed', async () => {
  const [none, flag, variable] = await Promise.all([serve([]).banner, serve(['--seed', '7']).banner, serve([], { BVS_MOCK_SEED: '9' }).banner]);
  expect(none).toMatch(/seed (\d+) \(drawn at start: --seed \1 --start-time \d{4}-\d\d-\d\dT[\d:.]+Z replays its ids; pre-signed URLs use a random key\)/);
  expect(flag).toMatch(/seed 7 \(pre-signed URLs use a key derived from it\)/);
  expect(variable).toMatch(/seed 9 \(pre-signed URLs use a key derived from it\)/);
});

test('listening beyond loopback without a control token, the banner warns in one line that anyone who reaches it can reset and reprogram it', async () => {
  const [open, locked, loopback] = await Promise.all([
    serve(['--host', '0.0.0.0']).banner,
    serve(['--host', '0.0.0.0', '--control-token', TOKEN]).banner,
    serve([]).banner,
  ]);
  const warnings = open.split('\n').filter((line) => line.startsWith('Warning:'));
  expect(warnings).toEqual([
    "Warning: listening on 0.0.0.0 with the control API open: anyone who can reach this address can reset and reprogram bvs-mock and read every organization's data. Give --control-token (BVS_MOCK_CONTROL_TOKEN) to lock it.",
  ]);
  expect(locked).not.toContain('Warning:');
  expect(loopback).not.toContain('Warning:');
});

test('with --log-format json, the same warning is a line of its own, kind "warning", right after the start line', async () => {
  const child = spawnCli(['serve', '--port', '0', '--clock', 'manual', '--host', '0.0.0.0', '--log-format', 'json']);
  let stdout = '';
  const parsed = () =>
    stdout
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  // Both lines are written at start, one after the other; nothing else comes until a request does.
  const lines = await new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
    let settle: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (parsed().length >= 2) {
        clearTimeout(settle);
        resolve(parsed());
      } else if (parsed().length === 1) settle ??= setTimeout(() => resolve(parsed()), 2_000);
    });
    child.once('exit', (code) => reject(new Error(`bvs-mock exited with ${code}: ${stdout}`)));
  });
  expect(lines.map((line) => line.kind)).toEqual(['start', 'warning']);
  expect(lines[1]!.message).toMatch(/^Warning: listening on 0\.0\.0\.0 with the control API open: .* Give --control-token/);
});

test('BVS_MOCK_ALLOWED_HOSTS adds Host names to answer for; any other name answers 421 naming the flag', async () => {
  const served = serve(['--http'], { BVS_MOCK_ALLOWED_HOSTS: 'mock.example.com,.corp.example' });
  const port = Number(/ listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(await served.banner)![1]);
  const at = (host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, path: '/_mock/health', headers: { host } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  expect((await at('mock.example.com')).status).toBe(200);
  expect((await at('ci.corp.example:4010')).status).toBe(200);
  const refused = await at('elsewhere.example.com');
  expect(refused.status).toBe(421);
  expect(refused.body).toContain('--allowed-hosts elsewhere.example.com');
});

test('a value of --allowed-hosts that is not a host name stops start-up naming it', async () => {
  const served = serve(['--allowed-hosts', 'https://mock.example.com']);
  expect(await served.exit).toBe(1);
  expect(served.stderr()).toContain('"https://mock.example.com" is not a host name');
});
