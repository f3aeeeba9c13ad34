import { buildProgram } from '../../src/cli/main';
import { renderReadings } from '../../src/cli/readings-command';
import { reading } from '../../src/cli/serve-flag-values';
import { READINGS } from '../../src/schemas';

// `bvs-mock readings` lists each reading with the spec's words for each value; `--reading NAME=VALUE` plays one.

test('bvs-mock readings --format json prints an array of { name, values, default, spec }, the first ready-on-main-failure', () => {
  const listed = JSON.parse(renderReadings('json')) as Array<{ name: string; values: string[]; default: string; row: number; spec: Record<string, string> }>;
  expect(listed.map((entry) => entry.name)).toEqual(READINGS.map((entry) => entry.name));
  expect(listed[0]).toEqual({
    name: 'ready-on-main-failure',
    values: ['sent', 'withheld'],
    default: 'sent',
    row: 31,
    spec: { sent: expect.stringContaining('fires when all runs of the main entity complete'), withheld: expect.stringContaining('completed successfully') },
  });
  expect(listed.slice(1)).toEqual([
    {
      name: 'child-batches-on-main-failure',
      values: ['suppressed', 'sent'],
      default: 'suppressed',
      row: 32,
      spec: {
        suppressed: expect.stringContaining('once the main batch and all partner batches have completed'),
        sent: expect.stringContaining("If a partner's data source fails definitively"),
      },
    },
    {
      name: 'child-batches-on-revalidation',
      values: ['once', 'again'],
      default: 'once',
      row: 33,
      spec: {
        once: expect.stringContaining('fires exactly once per validation'),
        again: expect.stringContaining('after `child_batches_ready` when that event is enabled'),
      },
    },
    {
      name: 'legacy-url-and-endpoints',
      values: ['both', 'legacy-only'],
      default: 'both',
      row: 58,
      spec: {
        both: expect.stringContaining('an event is delivered to every enabled endpoint subscribed to its type'),
        'legacy-only': expect.stringContaining('No organization endpoints'),
      },
    },
    {
      name: 'run-ready-on-failure',
      values: ['sent', 'withheld'],
      default: 'sent',
      row: 23,
      spec: { sent: expect.stringContaining('one event per run'), withheld: expect.stringContaining('"completed successfully"') },
    },
    {
      name: 'child-batch-fields',
      values: ['whole', 'listed'],
      default: 'whole',
      row: 21,
      spec: { whole: expect.stringContaining('same shape as a batch'), listed: expect.stringContaining('each child has id, runs_succeeded') },
    },
    {
      name: 'token-client-auth',
      values: ['form-or-basic', 'form-only'],
      default: 'form-or-basic',
      row: 69,
      spec: { 'form-or-basic': expect.stringContaining('RFC 6749 §2.3.1'), 'form-only': expect.stringContaining('application/x-www-form-urlencoded') },
    },
  ]);
  // Each value quotes the spec: a section and words in quotation marks.
  for (const entry of listed) {
    expect(Object.keys(entry.spec)).toEqual(entry.values);
    for (const words of Object.values(entry.spec)) expect(words).toMatch(/^§\d[^"]*"[^"]+"/);
  }
});

test('bvs-mock readings prints each reading with its row, each value with the spec words, the default marked', () => {
  const text = renderReadings('text');
  expect(text).toContain('ready-on-main-failure (docs/fidelity.md row 31)\n');
  expect(text).toMatch(/^ {2}sent \(default\) {2}§6 Event order 2: "`data_source_run_batch.ready` fires when all runs of the main entity complete\."/m);
  expect(text).toMatch(/^ {2}withheld {8}§6 Triggers: `data_source_run_batch.ready`: "all runs of the main entity completed successfully\."/m);
  expect(text).toContain('--reading NAME=VALUE');
});

test('the readings command is part of the command line and writes the list to stdout', async () => {
  const written: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    await buildProgram().parseAsync(['node', 'bvs-mock', 'readings', '--format', 'json']);
  } finally {
    spy.mockRestore();
  }
  expect(JSON.parse(written.join(''))).toEqual(JSON.parse(renderReadings('json')));
});

test('--reading takes NAME=VALUE, repeated or comma-separated, and refuses an unknown name or value naming the known ones', () => {
  expect(reading('ready-on-main-failure=withheld', {})).toEqual({ 'ready-on-main-failure': 'withheld' });
  expect(reading(' ready-on-main-failure = sent ,', { 'ready-on-main-failure': 'withheld' })).toEqual({ 'ready-on-main-failure': 'sent' });
  expect(() => reading('ready-on-main-failure', {})).toThrow('"ready-on-main-failure" is not NAME=VALUE, like ready-on-main-failure=withheld');
  expect(() => reading('late-ready=sent', {})).toThrow(
    'unknown reading "late-ready"; the readings are ready-on-main-failure, child-batches-on-main-failure, child-batches-on-revalidation, legacy-url-and-endpoints, run-ready-on-failure, child-batch-fields, token-client-auth',
  );
  expect(() => reading('ready-on-main-failure=never', {})).toThrow('reading ready-on-main-failure must be sent or withheld, got "never"');
});
