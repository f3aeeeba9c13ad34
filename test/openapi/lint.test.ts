import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

test.each(['openapi/openapi.yaml', 'openapi/control.yaml', 'openapi/tools.yaml'])('the committed %s passes Redocly lint (recommended-strict) with no problems', (file) => {
  const redocly = join(ROOT, 'node_modules', '.bin', 'redocly');
  const output = execFileSync(redocly, ['lint', file, '--format=json'], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const report = JSON.parse(output) as { totals: { errors: number; warnings: number }; problems: unknown[] };
  expect(report.problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
});
