// Debian's Chromium (`apt-get install chromium`, done by .ci/run), launched headless, quiet and offline
// (../shared STACK.md): playwright-core cannot download a browser here. One launch for the dashboard's
// scripts and its browser tests (test/support/chromium.ts).
const { chromium } = require('playwright-core');

/** Where Chromium is: /usr/bin/chromium, or CHROMIUM_PATH. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A headless Chromium; close it when done. */
function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}

module.exports = { CHROMIUM_PATH, launchChromium };
