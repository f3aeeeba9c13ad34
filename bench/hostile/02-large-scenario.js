'use strict';
/**
 * Hostile probe 2: large scenarios. A 957 KB YAML of 70,000 keys posted to POST /_mock/scenarios was
 * answered after 80.6 s while /_mock/health waited 77 s, and the same file in a --scenarios directory
 * took 63 s at start: the YAML duplicate-key check and the line lookup of each issue were quadratic.
 * Posts that file, then the densest shapes that still fit under the scenario limit (unknown keys, keys
 * given twice, a flow sequence, aliases), each a few times; then starts `bvs-mock serve --scenarios`
 * on a directory holding each of the two key files and times how soon it stops with its message.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const BIN = path.join(__dirname, '..', '..', 'bin', 'bvs-mock.js');
/** The scenario limit of bvs-mock (MAX_SCENARIO_FILE_BYTES): the shapes below fill it. */
const LIMIT = 256 * 1024;
const ROUNDS = 3;
/** A start-up that has not ended by then is killed and reported as such. */
const START_TIMEOUT_MS = 20_000;

const HEAD = [
  'name: many-keys',
  'description: A scenario with many unknown keys',
  'tins: ["11111111-1"]',
  'entity:',
  '  tin: 11111111-1',
  '  country: CL',
  '  category: business',
  '  name: Comercial Prueba SpA',
  '  runs: [{ type: cl/sii, outcomes: [{ succeeded: 20s }] }]',
].join('\n');

/** `count` different unknown keys in the entity, 14 bytes each: 70,000 make the 957 KB file. */
function keys(count, from = 0) {
  const lines = [];
  for (let index = from; index < from + count; index += 1) lines.push(`  key${String(index).padStart(5, '0')}: 1`);
  return lines.join('\n');
}

/** The largest `HEAD + unit * n` under LIMIT. */
function fill(head, unit, tail = '') {
  const count = Math.floor((LIMIT - Buffer.byteLength(head) - Buffer.byteLength(tail)) / Buffer.byteLength(unit));
  return head + unit.repeat(count) + tail;
}

function shapes() {
  const under = Math.floor((LIMIT - HEAD.length - 2) / 14);
  return [
    ['957 KB of 70,000 keys', `${HEAD}\n${keys(70_000)}\n`],
    [`${under} unknown keys`, `${HEAD}\n${keys(under)}\n`],
    [`${Math.floor(under / 2)} keys given twice`, `${HEAD}\n${keys(Math.floor(under / 2))}\n${keys(Math.floor(under / 2))}\n`],
    ['a flow sequence of 1s', fill(`${HEAD}\n  extra: [`, '1,', ']\n')],
    ['anchors and aliases', fill(`${HEAD}\n  anchored: &a 1\n  extra:\n`, '    - *a\n')],
  ];
}

/** Starts `bvs-mock serve --scenarios DIR` and resolves with how it ended and how long it took. */
function startWith(dir) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--http', '--scenarios', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let listening = false;
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      if (!listening && String(chunk).includes(' listening on ')) {
        listening = true;
        child.kill('SIGKILL');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const ms = Date.now() - started;
      const outcome = listening ? 'started' : code === null ? `killed after ${ms} ms` : `exit ${code}`;
      resolve(`${outcome} in ${ms} ms, ${stderr.length} B of stderr (${JSON.stringify(stderr.split('\n')[0].slice(0, 90))})`);
    });
  });
}

module.exports = {
  problem: 2,
  title: 'large scenario uploads and scenario files',
  serveArgs: [],
  async attack({ request }) {
    const seen = [];
    for (const [name, text] of shapes()) {
      const statuses = [];
      let slowest = 0;
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const answer = await request('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: text });
        statuses.push(answer.status);
        slowest = Math.max(slowest, answer.ms);
        bytes = answer.body.length;
      }
      seen.push(`${name} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KB): ${[...new Set(statuses)].join('/')} in ${slowest} ms at most, ${bytes} B`);
    }
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bvs-hostile-02-'));
    try {
      for (const [name, text] of shapes().slice(0, 2)) {
        const dir = fs.mkdtempSync(path.join(scratch, 'dir-'));
        fs.writeFileSync(path.join(dir, 'many-keys.yaml'), text);
        seen.push(`--scenarios with ${name}: ${await startWith(dir)}`);
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    return seen.join('; ');
  },
};
