import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ScenarioFileError, loadScenarioFile, parseScenarioSource } from '../../src/engine/scenarios';
import { MAX_SCENARIO_ALIASES } from '../../src/engine/scenarios/yaml-document-issues';

const VALID = `name: partner-fail
description: A small tree for loader tests
tins: ["76457968-2"]
entity:
  tin: 76457968-2
  country: CL
  category: business
  name: Comercial Prueba SpA
  runs:
    - { type: cl/sii, outcomes: [{ succeeded: 20s }] }
    - { type: cl/registry, outcomes: [{ succeeded: 30s }] }
  alerts:
    - { name: Tax debt, severity: medium, raised_by: cl/sii }
  partners:
    - tin: 12654321-2
      category: person
      name: Ana
      surname: Rojas
      runs:
        - type: cl/pep
          outcomes: [{ succeeded: 40s }]
`;

const FORMATION = `  formation:
    company_type: Sociedad por Acciones
    constitution_date: "2019-03-04"
    activity_description: Venta al por mayor no especializada
    administration: { administration_type: Administración a cargo de un gerente, simple_signature: true }
    equity: { total_amount: 1000000, total_shares: 1000 }
    stakeholders:
      - { tin: 12654321-2, roles: [shareholder, general_manager], ubo: true, participation: 1 }
`;

const directory = mkdtempSync(path.join(tmpdir(), 'bvs-mock-load-'));

function write(name: string, text: string): string {
  const file = path.join(directory, name);
  writeFileSync(file, text);
  return file;
}

/** The 1-based line of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`no line contains ${needle}`);
  return index + 1;
}

const withFormation = (text: string) => text.replace('  partners:\n', `${FORMATION}  partners:\n`);

interface FailureCase {
  title: string;
  text: string;
  path: string;
  /** The text of the line the issue must point at. */
  at: string;
  message: RegExp;
}

const FAILURES: FailureCase[] = [
  {
    title: 'a typo in an outcome status',
    text: VALID.replace('outcomes: [{ succeeded: 40s }]', 'outcomes: [{ definitve_error: 40s }]'),
    path: '$.entity.partners[0].runs[0].outcomes[0].definitve_error',
    at: 'definitve_error: 40s',
    message: /^"definitve_error" is not one of succeeded, temporary_error, definitive_error, missing_input_data$/,
  },
  {
    title: 'temporary_error as the last outcome',
    text: VALID.replace('outcomes: [{ succeeded: 40s }]', 'outcomes: [{ temporary_error: 40s }]'),
    path: '$.entity.partners[0].runs[0].outcomes[0]',
    at: 'temporary_error: 40s',
    message: /temporary_error is retried, so another outcome must follow it/,
  },
  {
    title: 'an outcome after succeeded',
    text: VALID.replace('{ succeeded: 20s }', '{ succeeded: 20s }, { succeeded: 5s }'),
    path: '$.entity.runs[0].outcomes[1]',
    at: 'succeeded: 5s',
    message: /succeeded ends the run, so no outcome may follow it/,
  },
  {
    title: 'an unknown field',
    text: VALID.replace('      surname: Rojas\n', '      surname: Rojas\n      nickname: Anita\n'),
    path: '$.entity.partners[0].nickname',
    at: 'nickname: Anita',
    message: /^"nickname" is not a known field here$/,
  },
  {
    title: 'a missing required field',
    text: VALID.replace('      name: Ana\n', ''),
    path: '$.entity.partners[0].name',
    at: 'tin: 12654321-2',
    message: /^required field is missing/,
  },
  {
    title: 'a formation on a non-Chilean entity',
    text: withFormation(VALID.replace('  country: CL', '  country: PE')),
    path: '$.entity.formation',
    at: '  formation:',
    message: /formation applies to businesses of the Chilean registry/,
  },
  {
    title: 'a formation stakeholder whose TIN is not a partner',
    text: withFormation(VALID).replace('{ tin: 12654321-2, roles', '{ tin: 11223344-K, roles'),
    path: '$.entity.formation.stakeholders[0].tin',
    at: 'tin: 11223344-K',
    message: /^11223344-K is not the TIN of one of this entity's partners \(12654321-2\)$/,
  },
  {
    title: 'an alert raised by a run the entity does not have',
    text: VALID.replace('raised_by: cl/sii', 'raised_by: cl/pep'),
    path: '$.entity.alerts[0].raised_by',
    at: 'raised_by: cl/pep',
    message: /^"cl\/pep" is not one of this entity's runs \(cl\/sii, cl\/registry\)$/,
  },
  {
    title: 'a TIN used twice within the tree',
    text: VALID.replace('    - tin: 12654321-2', '    - tin: 76457968-2'),
    path: '$.entity.partners[0].tin',
    at: '    - tin: 76457968-2',
    message: /^TIN 76457968-2 appears twice in the tree \(also at \$\.entity\.tin\)$/,
  },
  {
    title: 'a duration that is not one',
    text: VALID.replace('{ succeeded: 30s }', '{ succeeded: soon }'),
    path: '$.entity.runs[1].outcomes[0].succeeded',
    at: 'succeeded: soon',
    message: /"soon" is not a duration; write it like 20s/,
  },
];

test.each(FAILURES)('reports $title with the file, line, JSON path and reason', ({ text, path: jsonPath, at, message }) => {
  const file = write('case.yaml', text);
  const result = loadScenarioFile(file);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  const issue = result.issues.find((candidate) => candidate.path === jsonPath);
  expect(issue).toBeDefined();
  expect(issue).toMatchObject({ file, line: lineOf(text, at) });
  expect(issue!.message).toMatch(message);
});

test('formats an issue as bvs-mock: file:line: path: reason', () => {
  const text = VALID.replace('outcomes: [{ succeeded: 40s }]', 'outcomes: [{ definitve_error: 40s }]');
  const result = parseScenarioSource({ text, file: 'scenarios/partner-fail.yaml' });
  if (result.ok) throw new Error('expected issues');
  const error = new ScenarioFileError(result.file, result.issues, { cause: result.cause });
  expect(error).toBeInstanceOf(Error);
  expect(error.message).toBe(
    'bvs-mock: scenarios/partner-fail.yaml:21: $.entity.partners[0].runs[0].outcomes[0].definitve_error: ' +
      '"definitve_error" is not one of succeeded, temporary_error, definitive_error, missing_input_data',
  );
  expect(error.cause).toBe(result.cause);
});

test('reports a YAML syntax error with its line and column', () => {
  const text = VALID.replace('      name: Ana\n', '      name: Ana: Rojas\n');
  const result = loadScenarioFile(write('syntax.yaml', text));
  if (result.ok) throw new Error('expected issues');
  expect(result.issues[0]).toMatchObject({ code: 'yaml_syntax', line: lineOf(text, 'name: Ana: Rojas'), column: 13 });
  expect(result.issues[0]!.message).toMatch(/^YAML syntax error: /);
  expect(new ScenarioFileError(result.file, result.issues).message).toMatch(/syntax\.yaml:17:13: YAML syntax error: /);
});

test('reports a key given twice at the second one, naming the line of the first', () => {
  const text = VALID.replace('  country: CL\n', '  country: CL\n  country: PE\n');
  const result = loadScenarioFile(write('twice.yaml', text));
  if (result.ok) throw new Error('expected issues');
  expect(result.issues).toEqual([
    {
      file: result.file,
      line: lineOf(text, 'country: PE'),
      column: 3,
      path: '$.entity.country',
      code: 'duplicate_key',
      message: `"country" is given twice in this mapping (first at line ${lineOf(text, 'country: CL')}); a key may appear once, so remove or rename one`,
    },
  ]);
});

test('reports every key given twice, in file order, in block and flow mappings alike, and tells 1 from "1"', () => {
  const text = VALID.replace('  country: CL\n', '  country: CL\n  1: one\n  "1": one\n')
    .replace('{ name: Tax debt, severity: medium, raised_by: cl/sii }', '{ name: Tax debt, severity: medium, severity: high, raised_by: cl/sii }')
    .replace('      surname: Rojas\n', '      surname: Rojas\n      name: Ana\n');
  const result = loadScenarioFile(write('twice-more.yaml', text));
  if (result.ok) throw new Error('expected issues');
  expect(result.issues.map((issue) => [issue.code, issue.path, issue.line])).toEqual([
    ['duplicate_key', '$.entity.alerts[0].severity', lineOf(text, 'severity: high')],
    ['duplicate_key', '$.entity.partners[0].name', lineOf(text, 'surname: Rojas') + 1],
  ]);
});

test(`refuses more than ${MAX_SCENARIO_ALIASES} aliases at the first one over, before resolving any`, () => {
  const aliases = Array.from({ length: MAX_SCENARIO_ALIASES + 5 }, () => `    - *run`).join('\n');
  const text = VALID.replace('  runs:\n    - { type: cl/sii', '  runs:\n    - &run { type: cl/sii').replace(
    '  alerts:\n',
    `  copies:\n${aliases}\n  alerts:\n`,
  );
  const result = loadScenarioFile(write('aliases.yaml', text));
  if (result.ok) throw new Error('expected issues');
  expect(result.issues).toEqual([
    expect.objectContaining({
      code: 'too_many_aliases',
      path: `$.entity.copies[${MAX_SCENARIO_ALIASES}]`,
      line: lineOf(text, '  copies:') + MAX_SCENARIO_ALIASES + 1,
      message: expect.stringMatching(/^more than 1000 aliases \(\*name\) in the scenario, the limit of bvs-mock/),
    }),
  ]);
});

test('points at the line inside an anchored value for an issue reached through an alias', () => {
  const text = `${VALID.replace('    - tin: 12654321-2\n', '    - &ana\n      tin: 12654321-2\n').replace('      surname: Rojas\n', '      surname: Rojas\n      nickname: Anita\n')}    - *ana\n`;
  const result = loadScenarioFile(write('aliased.yaml', text));
  if (result.ok) throw new Error('expected issues');
  expect(result.issues).toContainEqual(expect.objectContaining({ path: '$.entity.partners[1].nickname', line: lineOf(text, 'nickname: Anita') }));
});

test('reports every issue of a file in file order, not only the first', () => {
  const text = VALID.replace('raised_by: cl/sii', 'raised_by: cl/pep')
    .replace('outcomes: [{ succeeded: 40s }]', 'outcomes: [{ temporary_error: 40s }]')
    .replace('name: partner-fail', 'name: Partner Fail');
  const result = loadScenarioFile(write('many.yaml', text));
  if (result.ok) throw new Error('expected issues');
  expect(result.issues.map((issue) => issue.path)).toEqual(['$.name', '$.entity.alerts[0].raised_by', '$.entity.partners[0].runs[0].outcomes[0]']);
  expect(result.issues.map((issue) => issue.line)).toEqual([1, 13, 21]);
});

test('reads JSON files and points at their lines', () => {
  const json = JSON.stringify(
    {
      name: 'as-json',
      description: 'JSON works too',
      entity: {
        tin: '76457968-2',
        country: 'CL',
        category: 'business',
        name: 'Comercial Prueba SpA',
        runs: [{ type: 'cl/sii', outcomes: [{ succeded: '20s' }] }],
      },
    },
    null,
    2,
  );
  const result = loadScenarioFile(write('as-json.json', json));
  if (result.ok) throw new Error('expected issues');
  expect(result.issues).toEqual([expect.objectContaining({ path: '$.entity.runs[0].outcomes[0].succeded', line: lineOf(json, '"succeded"') })]);
});

test('parses a valid file into milliseconds with defaults applied', () => {
  const result = loadScenarioFile(write('valid.yml', VALID));
  if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join('\n'));
  expect(result.value.entity.runs[0]!.outcomes).toEqual([{ status: 'succeeded', after: 20_000 }]);
  expect(result.value.report_after).toBe(10_000);
  expect(result.lineOf('$.entity.partners[0].tin')).toBe(15);
});

test('reports an empty file and a missing file without throwing', () => {
  const empty = loadScenarioFile(write('empty.yaml', '# nothing here\n'));
  expect(empty).toMatchObject({ ok: false, issues: [{ code: 'empty_file', line: 1 }] });
  const missing = loadScenarioFile(path.join(directory, 'nope.yaml'));
  expect(missing).toMatchObject({ ok: false, issues: [{ code: 'unreadable_file', message: 'the file does not exist' }] });
});
