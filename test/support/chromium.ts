import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { newest } from './built-cli';

// The one launch of the dashboard's scripts (scripts/chromium.js): Debian's Chromium, headless and offline.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const launcher = require('../../scripts/chromium.js') as { CHROMIUM_PATH: string; launchChromium(): Promise<Browser> };

/** Debian's Chromium (`apt-get install chromium`, done by .ci/run): playwright-core cannot download a browser here. */
export const CHROMIUM_PATH = launcher.CHROMIUM_PATH;

const ROOT = join(__dirname, '..', '..');

/**
 * Why browser tests cannot run here, or null when they can. In CI they must run: a missing Chromium
 * there is an error, not a skip.
 */
export function chromiumUnavailable(): string | null {
  const why = existsSync(CHROMIUM_PATH) ? null : `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (why !== null && process.env.CI === 'true') throw new Error(`browser tests must run in CI: ${why}`);
  return why;
}

/** Launches headless Chromium; the test closes it. */
export function launchChromium(): Promise<Browser> {
  return launcher.launchChromium();
}

/** Builds dist/ and the dashboard when their sources are newer (after `npm ci`, `prepare` built both). Call it in `beforeAll` with a long timeout. */
export function buildDashboardIfStale(): void {
  const built = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);
  const stale =
    built(join(ROOT, 'dashboard-dist', 'index.html')) < newest(join(ROOT, 'dashboard')) ||
    built(join(ROOT, 'dist', 'cli', 'main.js')) < newest(join(ROOT, 'src'));
  if (stale) execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 180_000 });
}

/** Where tests leave screenshots (gitignored): look at them after a run. */
export const SCREENSHOTS = join(ROOT, 'test-output', 'dashboard');
