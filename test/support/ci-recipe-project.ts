import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS } from '../../src/testing';
import { ROOT } from './built-cli';

// The client project the CI recipes of examples/ci/ assume: ci/fetch-certificate.js copied from the examples, an
// `npm test` that calls bvs-mock as a client would (HTTPS verified through NODE_EXTRA_CA_CERTS, nothing
// disabled), and a webhook receiver for the compose file. Node's built-ins only, so it runs in any node image.

/** What `npm test` prints before the event types the validation emitted, as JSON. */
export const API_CHECK_PREFIX = 'api-check: ';
/** What the receiver prints before each event type it got. */
export const RECEIVED_PREFIX = 'received: ';

const API_CHECK = `// Creates a ${SCENARIOS.happyPartners.name} validation, plays it to the end, prints the event types it emitted.
(async () => {
  const url = process.env.BVS_URL;
  const headers = { authorization: 'Bearer ' + process.env.BVS_API_KEY, 'content-type': 'application/json' };
  const body = JSON.stringify({ tin: '${SCENARIOS.happyPartners.tin}', country: '${SCENARIOS.happyPartners.country}' });
  const created = await fetch(url + '/api/v2/entity_validations', { method: 'POST', headers, body });
  if (created.status !== 201) throw new Error('create answered ' + created.status + ': ' + (await created.text()));
  const { id } = await created.json();
  const run = await fetch(url + '/_mock/clock/run', { method: 'POST' });
  if (run.status !== 200) throw new Error('clock/run answered ' + run.status);
  const emitted = await (await fetch(url + '/_mock/emitted?entity_validation_id=' + id)).json();
  console.log('${API_CHECK_PREFIX}' + JSON.stringify(emitted.events.map((event) => event.type)));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

const RECEIVER = `// Answers every webhook 200 and prints its type.
require('node:http')
  .createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      console.log('${RECEIVED_PREFIX}' + JSON.parse(body).type);
      response.end();
    });
  })
  .listen(3000, '0.0.0.0');
`;

/** Writes the project in a new scratch folder and returns it. */
export function writeClientProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bvs-mock-ci-project-'));
  mkdirSync(join(dir, 'ci'));
  mkdirSync(join(dir, 'test'));
  copyFileSync(join(ROOT, 'examples', 'ci', 'fetch-certificate.js'), join(dir, 'ci', 'fetch-certificate.js'));
  copyFileSync(join(ROOT, 'examples', 'ci', 'compose.yaml'), join(dir, 'compose.yaml'));
  writeFileSync(join(dir, 'test', 'api-check.js'), API_CHECK);
  writeFileSync(join(dir, 'test', 'webhook-receiver.js'), RECEIVER);
  const manifest = { name: 'client', version: '1.0.0', private: true, scripts: { test: 'node test/api-check.js' } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  // A lock file with nothing in it, so the recipes' `npm ci` runs as written, offline.
  const lock = { name: 'client', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'client', version: '1.0.0' } } };
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  return dir;
}

/** The event types `npm test` printed. */
export function apiCheckTypes(output: string): string[] {
  const line = output.split('\n').find((text) => text.startsWith(API_CHECK_PREFIX));
  if (line === undefined) throw new Error(`npm test printed no "${API_CHECK_PREFIX}" line:\n${output}`);
  return JSON.parse(line.slice(API_CHECK_PREFIX.length)) as string[];
}

/** Splits a command line as sh does for words, quotes and backslash-newlines (no expansions). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote !== null) {
      if (char === quote) quote = null;
      else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word = word ?? '';
    } else if (char === '\\' && line[index + 1] === '\n') {
      index += 1;
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== null) words.push(word);
  return words;
}
