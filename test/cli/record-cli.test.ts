import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScenarioLibrary } from '../../src/engine/scenarios';
import { Recording, parseWith } from '../../src/schemas';
import { connectBvsMock, startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { runCli, spawnCli, stopSpawned } from '../support/built-cli';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { freePort } from '../support/free-port';

// Recording a tree as a team records its sandbox, with the built command line: `bvs-mock serve` stands for the service,
// the client goes through `bvs-mock proxy --record`, the deliveries through `bvs-mock listen --record` to a local
// receiver; both are stopped with SIGTERM, and `bvs-mock scenario from-recording` turns the two files into a scenario.

const API_KEY = 'test_key_default';
const ENDPOINT_SECRET = 'whsec_record_cli_0123456789abcdef';
/** The company data masked: the name of every entity, and its display name. */
const REDACT = ['$..display_name', '$..name'];
const redactFlags = REDACT.flatMap((path) => ['--redact', path]);

let dir: string;
let receiver: WebhookReceiver | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bvs-record-cli-'));
});

afterEach(async () => {
  await stopSpawned();
  await receiver?.close();
  receiver = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The URL a spawned command prints once it listens (`pattern`'s first group); rejects if it exits first. */
function listening(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<string> {
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = pattern.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before it listened: ${stdout}${stderr}`)));
  });
}

/** SIGTERM, and the exit code. */
function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

function readRecording(file: string): Recording {
  const parsed = parseWith(Recording, JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.ok) throw new Error(`${file}: ${JSON.stringify(parsed.issues)}`);
  return parsed.value;
}

/** Every value a body gives `display_name`, in a JSON text. */
const displayNames = (text: string): string[] =>
  [...text.matchAll(/"display_name":\s*("(?:[^"\\]|\\.)*"|null)/g)].map((match) => JSON.parse(match[1]!) as string);

test('a happy-partners tree recorded through proxy and listen: valid recordings, the redacted path masked, no credential, and a scenario file the loader takes', async () => {
  receiver = await startWebhookReceiver();
  const proxyFile = join(dir, 'proxy.json');
  const listenFile = join(dir, 'listen.json');
  const listen = spawnCli([
    'listen',
    '--forward-to',
    receiver.url,
    '--auth',
    `secret:${ENDPOINT_SECRET}`,
    '--http',
    '--port',
    '0',
    '--record',
    listenFile,
    ...redactFlags,
  ]);
  const listenUrl = await listening(listen, /posted to (http:\/\/127\.0\.0\.1:\d+)\//);
  const serve = spawnCli([
    'serve',
    '--http',
    '--port',
    '0',
    '--clock',
    'instant',
    '--seed',
    '7',
    '--quiet',
    '--webhook-url',
    `${listenUrl}/hooks`,
    '--webhook-secret',
    ENDPOINT_SECRET,
  ]);
  const upstreamUrl = await listening(serve, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const proxy = spawnCli(['proxy', '--upstream', upstreamUrl, '--http', '--port', '0', '--record', proxyFile, ...redactFlags]);
  const proxyUrl = await listening(proxy, / listening on (http:\/\/127\.0\.0\.1:\d+)/);

  const headers = { authorization: `Bearer ${API_KEY}` };
  const createdAnswer = await fetch(`${proxyUrl}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ tin: HAPPY_PARTNERS, country: 'CL' }),
  });
  expect(createdAnswer.status).toBe(201);
  const created = (await createdAnswer.json()) as { id: string };
  const control = connectBvsMock(upstreamUrl);
  const emitted = await control.waitForSettled(created.id);
  // The client reads the tree back, as it would on child_batches_ready: the partners' names are in the answer.
  const validation = (await (await fetch(`${proxyUrl}/api/v2/entity_validations/${created.id}`, { headers })).json()) as {
    data_source_run_batches: { id: string }[];
  };
  for (const batch of validation.data_source_run_batches)
    expect((await fetch(`${proxyUrl}/api/v2/data_source_run_batches/${batch.id}`, { headers })).status).toBe(200);
  const names = displayNames(JSON.stringify(await control.validationTree(created.id))).filter((name) => name !== '');
  expect(names.length).toBeGreaterThan(1);
  expect(receiver.received.length).toBe(emitted.length);

  expect(await stop(proxy)).toBe(0);
  expect(await stop(listen)).toBe(0);
  expect(await stop(serve)).toBe(0);

  const recorded = { proxy: readRecording(proxyFile), listen: readRecording(listenFile) };
  expect(recorded.proxy.redacted).toEqual(REDACT);
  expect(recorded.listen.redacted).toEqual(REDACT);
  expect(recorded.proxy.trees.map((tree) => tree.tree_id)).toEqual([created.id]);
  expect(recorded.listen.trees.map((tree) => tree.tree_id)).toEqual([created.id]);
  expect(recorded.listen.deliveries.map((delivery) => delivery.event_type)).toEqual(emitted.map((event) => event.type));
  // Every exchange and delivery that had the path has it masked, and none of the names is left anywhere.
  const bodies = [
    ...recorded.proxy.exchanges.flatMap((exchange) => [exchange.request_body, exchange.answer_body]),
    ...recorded.listen.deliveries.map((delivery) => JSON.stringify(delivery.body)),
  ];
  const masked = bodies.filter((body) => displayNames(body).length > 0);
  expect(masked.length).toBeGreaterThan(2);
  for (const body of masked) expect(new Set(displayNames(body))).toEqual(new Set(['(redacted)']));
  expect(
    recorded.proxy.exchanges.some((exchange) => exchange.path === `/api/v2/entity_validations/${created.id}` && displayNames(exchange.answer_body).length > 0),
  ).toBe(true);
  expect(recorded.listen.deliveries.some((delivery) => delivery.event_type === 'entity_validation.stakeholder.created')).toBe(true);
  const files = [readFileSync(proxyFile, 'utf8'), readFileSync(listenFile, 'utf8')];
  for (const text of files) {
    for (const name of names) expect(text).not.toContain(JSON.stringify(name));
    for (const credential of [API_KEY, ENDPOINT_SECRET, 'default_secret', 'tok_legacy_default']) expect(text).not.toContain(credential);
    // An Authorization header keeps its scheme alone: `Bearer (masked)`, never a token.
    expect(text).not.toMatch(/Bearer (?!\(masked\))[^*"]/);
  }
  expect(files[0]).toContain('"authorization": "Bearer (masked)"');

  // The two recordings become a scenario file that the loader of --scenarios directories takes. (serve --scenarios
  // beside the built-ins refuses it: the recorded tree keeps its TIN, which the built-in happy-partners claims.)
  const scenarios = join(dir, 'scenarios');
  mkdirSync(scenarios);
  const out = join(scenarios, 'recorded-tree.yaml');
  const written = await runCli(['scenario', 'from-recording', proxyFile, listenFile, '--name', 'recorded-tree', '--out', out]);
  // The tree is happy-partners', whose TIN the built-in scenario has: the file is written, with a note of that.
  expect(written).toMatchObject({ code: 0, stderr: expect.stringContaining('note: TIN 76920415-6 is already claimed by scenario "happy-partners"') });
  expect(readFileSync(out, 'utf8')).toMatch(/^name: recorded-tree\n/);
  const library = new ScenarioLibrary();
  library.loadDirectory(scenarios);
  const scenario = library.forTin(HAPPY_PARTNERS)!;
  expect(scenario.name).toBe('recorded-tree');
  expect(scenario.entity.partners).toHaveLength(ScenarioLibrary.builtIn().byName('happy-partners')!.entity.partners!.length);
});

test.each(['proxy', 'listen'])('%s --redact with a malformed JSON path exits 2 naming it, before anything listens', async (command) => {
  const port = await freePort();
  const args =
    command === 'proxy'
      ? ['proxy', '--upstream', `http://127.0.0.1:${port}`]
      : ['listen', '--forward-to', `http://127.0.0.1:${port}/hooks`, '--auth', 'none', '--record', join(dir, 'listen.json')];
  const run = await runCli([...args, '--http', '--port', '0', ...redactFlags, '--redact', '$.entity_validation[name']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`bvs-mock ${command}: --redact $.entity_validation[name: cannot read "[name"`);
  expect(run.stdout).not.toContain('listening');
  expect(run.stdout).not.toContain('posted to');
});

test.each([
  [
    'a JSON file of another format',
    JSON.stringify({ format: 'bvs-mock/world-snapshot', version: 1 }),
    'not a recording (its format is not bvs-mock/recording)',
  ],
  ['a file that is not JSON', 'format: bvs-mock/recording\n', 'not JSON ('],
])('scenario from-recording on %s exits 2 naming the file and why', async (_what, text, why) => {
  const file = join(dir, 'not-a-recording.json');
  writeFileSync(file, text);
  const out = join(dir, 'out.yaml');
  const run = await runCli(['scenario', 'from-recording', file, '--name', 'recorded-tree', '--out', out]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`bvs-mock scenario from-recording: ${file}: ${why}`);
  expect(() => readFileSync(out)).toThrow();
});
