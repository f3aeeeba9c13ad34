import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateCommand } from '../../src/cli/validate-command';
import { EVENT_EXAMPLES, exampleEntityValidation } from '../../src/schemas';

const dir = mkdtempSync(join(tmpdir(), 'bvs-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function run(files: string[], schema?: string, strict?: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const code = validateCommand(files, { schema, strict, out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

test('a valid event file is reported valid by its type, and the exit code is 0', () => {
  const path = file('ready.json', JSON.stringify(EVENT_EXAMPLES['data_source_run_batch.ready']()));
  expect(run([path])).toEqual({ code: 0, out: [`${path}: valid data_source_run_batch.ready event`], err: [] });
});

test('an invalid event prints every problem with its JSON path, and the exit code is 1', () => {
  const body = EVENT_EXAMPLES['data_source_run_batch.child_batches_ready']();
  body.data_source_run_batch.child_batches[0]!.raised_alerts[0]!.id = 'alert_1';
  delete (body.data_source_run_batch as Partial<typeof body.data_source_run_batch>).tin;
  const path = file('bad.json', JSON.stringify(body));
  const result = run([path]);
  expect(result.code).toBe(1);
  expect(result.err[0]).toBe(`${path}: invalid data_source_run_batch.child_batches_ready event (2 problems)`);
  expect(result.err).toHaveLength(3);
  expect(result.err.slice(1)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^ {2}\$\.data_source_run_batch\.child_batches\[0\]\.raised_alerts\[0\]\.id: must be an id of the form rlal_/),
      '  $.data_source_run_batch.tin: required field is missing (expected a string)',
    ]),
  );
});

test('--schema checks a non-event payload, and an unknown schema name lists the known ones', () => {
  const path = file('validation.yaml', JSON.stringify(exampleEntityValidation()));
  expect(run([path], 'EntityValidation').code).toBe(0);
  const unknown = run([path], 'Validation');
  expect(unknown.code).toBe(1);
  expect(unknown.err.join('\n')).toContain('no schema named "Validation"; use one of:');
});

test('a payload that is not an event and has no --schema is refused with what to do', () => {
  const path = file('plain.json', JSON.stringify(exampleEntityValidation()));
  const result = run([path]);
  expect(result.code).toBe(1);
  expect(result.err.join('\n')).toContain('name the schema with --schema');
});

test('ndjson files are checked line by line, each named by its line number', () => {
  const good = JSON.stringify(EVENT_EXAMPLES['data_source_run_batch.data_source_run.ready']());
  const path = file('events.ndjson', `${good}\n\n{"type":"data_source_run_batch.ready"}\n`);
  const result = run([path]);
  expect(result.code).toBe(1);
  expect(result.out).toEqual([`${path}:1: valid data_source_run_batch.data_source_run.ready event`]);
  expect(result.err[0]).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: invalid data_source_run_batch.ready event`));
});

test('an unreadable file and a file that is not JSON are reported, and the others still checked', () => {
  const good = file('good.json', JSON.stringify(EVENT_EXAMPLES['information_request.evaluated']()));
  const broken = file('broken.json', '{"type": ');
  const result = run([join(dir, 'missing.json'), broken, good]);
  expect(result.code).toBe(1);
  expect(result.err[0]).toBe(`${join(dir, 'missing.json')}: cannot read the file (ENOENT)`);
  expect(result.err[1]).toMatch(/broken\.json: not valid JSON: /);
  expect(result.out).toEqual([`${good}: valid information_request.evaluated event`]);
});

// Regression: validate rejected what the service may send (its field lists are "not shown", spec §2), though the
// README promised that what the service sends is open: `$.data_source_run_batch.unknown_new_field: "unknown_new_field"
// is not a known field here`. Unknown fields inside a resource are tolerated; --strict rejects them.
test('fields the contract does not list inside what the service sends are accepted, and rejected with --strict', () => {
  const body = EVENT_EXAMPLES['data_source_run_batch.ready']() as unknown as {
    data_source_run_batch: Record<string, unknown> & { raised_alerts: Array<Record<string, unknown>> };
  };
  body.data_source_run_batch.unknown_new_field = 1;
  body.data_source_run_batch.raised_alerts[0]!.severity = 'informational';
  const path = file('new-field.json', JSON.stringify(body));
  expect(run([path])).toMatchObject({ code: 0, out: [`${path}: valid data_source_run_batch.ready event`] });
  const strict = run([path], undefined, true);
  expect(strict.code).toBe(1);
  expect(strict.err).toContain('  $.data_source_run_batch.unknown_new_field: "unknown_new_field" is not a known field here');
  // A severity the spec does not list is part of the contract ("values seen"), strict or not.
  expect(strict.err.join('\n')).not.toContain('severity');
  const resource = file('validation.json', JSON.stringify({ ...exampleEntityValidation(), score: 3 }));
  expect(run([resource], 'EntityValidation').code).toBe(0);
  expect(run([resource], 'EntityValidation', true).code).toBe(1);
});

test('the event envelope stays closed and request bodies stay closed, even without --strict', () => {
  const beside = file('beside-type.json', JSON.stringify({ ...EVENT_EXAMPLES['data_source_run_batch.ready'](), extra: true }));
  expect(run([beside]).err).toContain('  $.extra: "extra" is not a known field here');
  const request = file('create.json', JSON.stringify({ tin: '76920415-6', country: 'CL', nickname: 'x' }));
  expect(run([request], 'EntityValidationCreateRequest').code).toBe(1);
});
