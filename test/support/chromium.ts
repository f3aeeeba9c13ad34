import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

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

/** Where tests leave screenshots (gitignored): look at them after a run. */
export const SCREENSHOTS = join(ROOT, 'test-output', 'dashboard');
