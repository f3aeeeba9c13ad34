import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, useTestServer } from '../support/api-test-server';
import { ROOT } from '../support/built-cli';

// Regression: a missing dashboard asset answered "... is not in /abs/path/dashboard-dist", open even under
// --control-token, and GET /_mock/scenarios showed every scenario's absolute file path as `source`. An answer
// names a file as the user gave it, never by where bvs-mock happens to be installed.

const dir = mkdtempSync(path.join(tmpdir(), 'bvs-sources-'));
writeFileSync(
  path.join(dir, 'mine.yaml'),
  [
    'name: mine',
    'description: one run',
    'tins: ["11111111-1"]',
    'entity:',
    '  tin: 11111111-1',
    '  country: CL',
    '  category: business',
    '  name: Mine SpA',
    '  runs:',
    '    - { type: cl/sii, outcomes: [{ succeeded: 5s }] }',
    '',
  ].join('\n'),
);
// What a user types on the command line: a path relative to where they are.
const given = path.relative(process.cwd(), dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const t = useTestServer({ controlToken: 'sekret' }, { reset: false });

test('a missing dashboard asset is refused without naming the folder bvs-mock is installed in', async () => {
  for (const file of ['x.pdf', 'nothing-here.js']) {
    const answer = await t.call(`/_mock/assets/${file}`);
    expect(answer.status).toBe(404);
    expect(answer.text()).not.toContain(ROOT);
    expect(answer.text()).toContain('dashboard-dist/');
  }
});

test('GET /_mock/scenarios shows a built-in scenario as built-in scenarios/<file>, not by its absolute path', async () => {
  const answer = await t.call('/_mock/scenarios', { headers: { authorization: 'Bearer sekret' } });
  expect(answer.status).toBe(200);
  const { scenarios } = answer.json<{ scenarios: Array<{ name: string; source: string; built_in: boolean }> }>();
  expect(scenarios.find((scenario) => scenario.name === 'happy-partners')?.source).toBe('built-in scenarios/happy-partners.yaml');
  expect(answer.text()).not.toContain(ROOT);
});

test('a scenario of a --scenarios folder is shown under the path the folder was given by', async () => {
  const server = await startTestServer({ scenarioDirs: [given] });
  try {
    const { scenarios } = (await server.call('/_mock/scenarios')).json<{ scenarios: Array<{ name: string; source: string }> }>();
    expect(scenarios.find((scenario) => scenario.name === 'mine')?.source).toBe(path.join(given, 'mine.yaml'));
  } finally {
    await server.close();
  }
});
