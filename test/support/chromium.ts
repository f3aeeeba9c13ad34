import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { newest } from './built-cli';

/** Debian's Chromium (`apt-get install chromium`, done by .ci/run): playwright-core cannot download a browser here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ROOT = join(__dirname, '..', '..');

/** Flags that keep a headless Chromium quiet and offline (../shared STACK.md). */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
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
