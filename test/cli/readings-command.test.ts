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
  for (const entry of listed) expect(Object.keys(entry.spec)).toEqual(entry.values);
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
  expect(() => reading('late-ready=sent', {})).toThrow('unknown reading "late-ready"; the readings are ready-on-main-failure');
  expect(() => reading('ready-on-main-failure=never', {})).toThrow('reading ready-on-main-failure must be sent or withheld, got "never"');
});
