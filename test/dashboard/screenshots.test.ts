import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromiumUnavailable } from '../support/chromium';

// The script that makes the README's screenshots (docs/dashboard-*.png) keeps working: run here into a
// temporary folder, so tests never rewrite docs/.

const unavailable = chromiumUnavailable();
const testInBrowser = unavailable === null ? test : test.skip;
if (unavailable !== null) process.stderr.write(`dashboard screenshot test skipped: ${unavailable}\n`);

testInBrowser(
  'scripts/dashboard-screenshots.js writes one screenshot of each view',
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'bvs-mock-shots-'));
    try {
      await promisify(execFile)(process.execPath, [join(__dirname, '..', '..', 'scripts', 'dashboard-screenshots.js'), out], { timeout: 90_000 });
      const files = readdirSync(out).sort();
      expect(files).toEqual(['dashboard-clock.png', 'dashboard-endpoints.png', 'dashboard-events.png', 'dashboard-report.png', 'dashboard-validations.png']);
      for (const file of files) expect(statSync(join(out, file)).size).toBeGreaterThan(20_000);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
  240_000,
);
