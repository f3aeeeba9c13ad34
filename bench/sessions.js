#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:sessions`: what sessions cost on one running bvs-mock. The built command line
 * (`bvs-mock serve --http --clock instant --quiet --allow-http-webhooks`, bin/ over the one-file bundle, as
 * users run it) on loopback:
 * - 1, 16 and 64 sessions in parallel, each with its own webhook endpoint (registered through the session's
 *   control API) pointing at its own node:http receiver, each creating 50 happy-partners validations
 *   (TIN 76920415-6) and running its clock until every delivery has ended: trees per second, the server's RSS
 *   before, at its peak and after, and whether every event reached its session's receiver exactly once;
 * - the same load for 16 on 16 separate `bvs-mock serve` processes (each its default session), side by side
 *   with 16 sessions on one, as ratios;
 * - memory per idle session: the server's RSS grown by N idle sessions, over N (next to the RSS of one idle
 *   process, what a process per test worker costs instead);
 * - a snapshot of a session holding 1,000 played validations: its size, the time to take it and to restore it.
 * Each figure comes from a fresh server. The receivers run in a child process (this file with --receivers), so
 * they do not share the load generator's event loop. Prints figures and ratios, never asserts a time; exits 0
 * after printing, 1 only when something could not be measured.
 *
 * Environment: BENCH_SESSIONS_TREES (validations per session, default 50), BENCH_SESSIONS_LEVELS (default
 * "1,16,64"), BENCH_SESSIONS_PROCESSES (separate processes to compare with, default 16; 0 skips),
 * BENCH_SESSIONS_IDLE (idle sessions, default 100, at most the server's --max-sessions limit, 1,000 here),
 * BENCH_SESSIONS_SNAPSHOT_VALIDATIONS (validations of the session whose snapshot is measured, default 1,000).
 */
const { fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { busyShare } = require('./busy-share');

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'bvs-mock.js');
const SERVE = ['serve', '--http', '--port', '0', '--clock', 'instant', '--quiet', '--allow-http-webhooks', '--max-sessions', '1000'];
/** The TIN of the built-in happy-partners scenario: a main validation, three partners, their batches and runs. */
const HAPPY_PARTNERS = { tin: '76920415-6', country: 'CL' };
const TREES = Number(process.env.BENCH_SESSIONS_TREES || 50);
const LEVELS = (process.env.BENCH_SESSIONS_LEVELS || '1,16,64').split(',').map(Number);
const PROCESSES = Number(process.env.BENCH_SESSIONS_PROCESSES ?? 16);
const IDLE = Number(process.env.BENCH_SESSIONS_IDLE || 100);
/** Real seconds one `POST …/clock/run` may wait; a run not settled by then is called again. */
const RUN_WAIT_S = 600;
/** How often the servers' RSS is read while they work. */
const SAMPLE_MS = 100;

// ---------------------------------------------------------------------------------------------
// The receivers (child process): one node:http server per session, counting what each receives.

function runReceivers() {
  const servers = [];
  process.on('message', (message) => {
    if (message.cmd === 'open') {
      const opening = [];
      for (let index = 0; index < message.count; index += 1) {
        const state = { requests: 0, bodies: new Set() };
        const server = http.createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
          const chunks = [];
          request.on('data', (chunk) => chunks.push(chunk));
          request.on('end', () => {
            state.requests += 1;
            state.bodies.add(Buffer.concat(chunks).toString('utf8'));
            response.writeHead(200, { 'content-type': 'text/plain' });
            response.end('ok');
          });
        });
        servers.push({ server, state });
        opening.push(new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port))));
      }
      Promise.all(opening).then((ports) => process.send({ cmd: 'opened', ports }));
    } else if (message.cmd === 'counts') {
      process.send({ cmd: 'counts', counts: servers.map(({ state }) => ({ requests: state.requests, distinct: state.bodies.size })) });
    } else if (message.cmd === 'close') {
      for (const { server } of servers.splice(0)) server.close();
      process.send({ cmd: 'closed' });
    }
  });
}

/** The receivers' child; `open(n)` answers n receiver URLs, `counts()` what each received, `stop()` ends it. */
function startReceivers() {
  const child = fork(__filename, ['--receivers'], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const ask = (message, answer) =>
    new Promise((resolve, reject) => {
      const onMessage = (reply) => {
        if (reply.cmd !== answer) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply);
      };
      const onExit = (code) => reject(new Error(`the receivers' process exited (code ${code}) while waiting for ${answer}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(message);
    });
  return {
    async open(count) {
      return (await ask({ cmd: 'open', count }, 'opened')).ports.map((port) => `http://127.0.0.1:${port}/hooks`);
    },
    async counts() {
      return (await ask({ cmd: 'counts' }, 'counts')).counts;
    },
    async close() {
      await ask({ cmd: 'close' }, 'closed');
    },
    stop() {
      if (child.connected) child.disconnect();
      setTimeout(() => child.kill(), 2000).unref();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The servers (child processes) and the HTTP client.

/** Every child still running; the 'exit' handler kills what was not stopped. */
const children = new Set();
process.on('exit', () => {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** `bvs-mock serve` in a child; resolves `{ child, url }` once it prints its `listening on` line. */
function startServer() {
  const child = spawn(process.execPath, [BIN, ...SERVE], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-8192));
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal || code)));
  child.exited.then(() => children.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`bvs-mock serve printed no "listening on" line within 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) finish(null, match[1]);
    };
    const onExit = () => finish(new Error(`bvs-mock serve exited before listening:\n${output}`));
    function finish(error, url) {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve({ child, url });
    }
    child.stdout.on('data', check);
    child.once('exit', onExit);
  });
}

async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const outcome = await Promise.race([child.exited, sleep(5_000).then(() => 'timeout')]);
  if (outcome === 'timeout') {
    child.kill('SIGKILL');
    await child.exited;
  }
}

/** Resident memory of a process in MB (Linux /proc), or null. */
function rssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The summed RSS of `pids`, read every SAMPLE_MS until `stop()`, which answers the peak. */
function sampleRss(pids) {
  let peak = 0;
  const read = () =>
    (peak = Math.max(
      peak,
      pids.reduce((sum, pid) => sum + (rssMb(pid) ?? 0), 0),
    ));
  read();
  const timer = setInterval(read, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One JSON request; resolves `{ status, json }`. */
function call(base, method, pathname, { body, key } = {}) {
  const url = new URL(pathname, base);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = {};
  if (text !== undefined) headers['content-type'] = 'application/json';
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = raw === '' ? undefined : JSON.parse(raw);
        } catch {
          json = raw;
        }
        resolve({ status: response.statusCode, json });
      });
    });
    request.on('error', reject);
    request.end(text);
  });
}

async function expectStatus(promise, status, what) {
  const answer = await promise;
  if (answer.status !== status) throw new Error(`${what}: answered ${answer.status}, not ${status}: ${JSON.stringify(answer.json).slice(0, 400)}`);
  return answer.json;
}

async function newSession(url, label) {
  return expectStatus(call(url, 'POST', '/_mock/sessions', { body: { label } }), 201, 'POST /_mock/sessions');
}

// ---------------------------------------------------------------------------------------------
// The load: one world (a session, or a process's default session) playing TREES trees to its receiver.

/**
 * Registers `receiver` as the world's endpoint, creates TREES happy-partners validations one after the other
 * (as a test file does) and runs the clock until every delivery has ended; answers its delivery counts.
 */
async function playTrees(url, world, receiver) {
  await expectStatus(call(url, 'POST', `${world.controlBase}/webhook_endpoints`, { body: { name: 'bench', url: receiver } }), 201, 'POST webhook_endpoints');
  for (let index = 0; index < TREES; index += 1)
    await expectStatus(call(url, 'POST', '/api/v2/entity_validations', { body: HAPPY_PARTNERS, key: world.key }), 201, 'POST /api/v2/entity_validations');
  for (;;) {
    const run = await expectStatus(call(url, 'POST', `${world.controlBase}/clock/run`, { body: { max_wait_seconds: RUN_WAIT_S } }), 200, 'POST clock/run');
    if (run.settled) return run.deliveries;
  }
}

/** Plays every world at once; answers the trees per second, the peak RSS and whether each receiver got each event once. */
async function playAll(worlds, pids, receivers) {
  const urls = await receivers.open(worlds.length);
  const before = pids.reduce((sum, pid) => sum + (rssMb(pid) ?? 0), 0);
  const sampler = sampleRss(pids);
  const started = process.hrtime.bigint();
  const deliveries = await Promise.all(worlds.map((world, index) => playTrees(world.url, world, urls[index])));
  const ms = since(started);
  const peak = sampler.stop();
  await sleep(500);
  const after = pids.reduce((sum, pid) => sum + (rssMb(pid) ?? 0), 0);
  const counts = await receivers.counts();
  await receivers.close();
  const succeeded = deliveries.reduce((sum, counted) => sum + counted.succeeded, 0);
  const notSucceeded = deliveries.reduce((sum, counted) => sum + counted.pending + counted.failed + counted.expired, 0);
  // Each receiver got what its own world delivered, each body once: nothing crossed over, nothing was lost or doubled.
  const exact = deliveries.every((counted, index) => counts[index].requests === counted.succeeded && counts[index].distinct === counted.succeeded);
  return {
    worlds: worlds.length,
    trees: worlds.length * TREES,
    ms,
    treesPerS: (worlds.length * TREES) / (ms / 1000),
    succeeded,
    notSucceeded,
    exact,
    before,
    peak,
    after,
  };
}

/** `count` sessions on one fresh server, played at once. */
async function sessionsOnOneServer(count, receivers) {
  const { child, url } = await startServer();
  try {
    const worlds = [];
    for (let index = 0; index < count; index += 1) {
      const session = await newSession(url, `bench-${index}`);
      worlds.push({ url, controlBase: session.control_base, key: session.organizations[0].api_keys[0] });
    }
    return await playAll(worlds, [child.pid], receivers);
  } finally {
    await stopServer(child);
  }
}

/** `count` fresh processes, each playing its default session. */
async function separateProcesses(count, receivers) {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer()));
  const servers = started.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => outcome.value);
  try {
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const worlds = servers.map(({ url }) => ({ url, controlBase: '/_mock', key: 'test_key_default' }));
    return await playAll(
      worlds,
      servers.map(({ child }) => child.pid),
      receivers,
    );
  } finally {
    await Promise.all(servers.map(({ child }) => stopServer(child)));
  }
}

/** RSS grown by `count` idle sessions on a fresh server, over `count`; with the RSS of the idle server itself. */
async function idleSessions(count) {
  const { child, url } = await startServer();
  try {
    const limit = (await expectStatus(call(url, 'GET', '/_mock/sessions'), 200, 'GET /_mock/sessions')).limits.max_sessions;
    const n = Math.min(count, limit - 1);
    // One first, so what the first session alone sets up (code compiled, pools) is not counted as every session's.
    await newSession(url, 'warm-up');
    await sleep(1000);
    const idleServer = rssMb(child.pid);
    const started = process.hrtime.bigint();
    for (let index = 0; index < n; index += 1) await newSession(url, `idle-${index}`);
    const createMs = since(started) / n;
    await sleep(1000);
    const withSessions = rssMb(child.pid);
    return { n, limit, idleServer, withSessions, perSession: (withSessions - idleServer) / n, createMs };
  } finally {
    await stopServer(child);
  }
}

/** Validations in the session a snapshot is measured on. */
const SNAPSHOT_VALIDATIONS = Number(process.env.BENCH_SESSIONS_SNAPSHOT_VALIDATIONS || 1000);

/**
 * Snapshot size and time per 1,000 validations: on a fresh server, one session holding SNAPSHOT_VALIDATIONS played
 * happy-partners validations; `GET /_mock/sessions/{id}/snapshot` timed and its bytes counted, then restoring it
 * into a new session (`POST /_mock/sessions` with `snapshot`) timed.
 */
async function measureSnapshot() {
  const { child, url } = await startServer();
  try {
    const session = await newSession(url, 'snapshot');
    const key = session.organizations[0].api_keys[0];
    for (let index = 0; index < SNAPSHOT_VALIDATIONS; index += 1)
      await expectStatus(call(url, 'POST', '/api/v2/entity_validations', { body: HAPPY_PARTNERS, key }), 201, 'POST /api/v2/entity_validations');
    await expectStatus(call(url, 'POST', `${session.control_base}/clock/run`, { body: { max_wait_seconds: RUN_WAIT_S } }), 200, 'POST clock/run');
    const taken = process.hrtime.bigint();
    const snapshot = await expectStatus(call(url, 'GET', `${session.control_base}/snapshot`), 200, 'GET snapshot');
    const ms = since(taken);
    const bytes = Buffer.byteLength(JSON.stringify(snapshot));
    const restoring = process.hrtime.bigint();
    await expectStatus(call(url, 'POST', '/_mock/sessions', { body: { snapshot } }), 201, 'POST /_mock/sessions with a snapshot');
    return { validations: SNAPSHOT_VALIDATIONS, bytes, ms, restoreMs: since(restoring) };
  } finally {
    await stopServer(child);
  }
}

// ---------------------------------------------------------------------------------------------
// The report.

const mb = (value) => (value == null ? 'n/a' : `${Math.round(value)} MB`);
const num = (value, digits = 0) => (value == null || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits));
const row = (cells) => `| ${cells.join(' | ')} |`;

async function main() {
  if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
  const busy = await busyShare();
  const receivers = startReceivers();
  const loads = [];
  let processes = null;
  let idle;
  let snapshot;
  try {
    for (const count of LEVELS) loads.push(await sessionsOnOneServer(count, receivers));
    if (PROCESSES > 0) processes = await separateProcesses(PROCESSES, receivers);
    idle = await idleSessions(IDLE);
    snapshot = await measureSnapshot();
  } finally {
    receivers.stop();
  }

  const lines = [
    `bvs-mock sessions: ${TREES} happy-partners trees per world, instant clock, one node:http receiver per world, plain HTTP on loopback; node ${process.version}, ${require('node:os').availableParallelism()} cores${busy == null ? '' : `, ${Math.round(busy * 100)}% busy before the run`}.`,
    '',
    row(['load', 'trees', 'time', 'trees/s', 'deliveries', 'each event once at its own receiver', 'RSS before', 'RSS peak', 'RSS after']),
    row(['---', '---:', '---:', '---:', '---:', '---', '---:', '---:', '---:']),
  ];
  const loadRow = (label, load) =>
    row([
      label,
      String(load.trees),
      `${num(load.ms / 1000, 1)} s`,
      num(load.treesPerS, 1),
      `${load.succeeded} succeeded${load.notSucceeded > 0 ? `, ${load.notSucceeded} not` : ''}`,
      load.exact ? 'yes' : 'NO',
      mb(load.before),
      mb(load.peak),
      mb(load.after),
    ]);
  for (const load of loads) lines.push(loadRow(`${load.worlds} session${load.worlds === 1 ? '' : 's'} on one server`, load));
  if (processes) lines.push(loadRow(`${processes.worlds} separate processes (RSS summed)`, processes));
  lines.push('');
  const same = processes && loads.find((load) => load.worlds === processes.worlds);
  if (same) {
    lines.push(
      `${same.worlds} sessions on one server vs ${processes.worlds} processes: ${num(same.treesPerS / processes.treesPerS, 2)} × the trees per second, ` +
        `${num(same.peak / processes.peak, 2)} × the peak RSS (${mb(same.peak)} vs ${mb(processes.peak)}).`,
    );
  } else if (PROCESSES > 0) {
    lines.push(`No level of ${PROCESSES} sessions to compare the ${PROCESSES} processes with (BENCH_SESSIONS_LEVELS).`);
  }
  if (idle) {
    lines.push(
      `Idle sessions: ${idle.n} on a fresh server grew its RSS from ${mb(idle.idleServer)} to ${mb(idle.withSessions)}: ${num(idle.perSession, 2)} MB per session ` +
        `(made in ${num(idle.createMs, 1)} ms each; the server holds at most ${idle.limit}). One idle bvs-mock process instead: ${mb(idle.idleServer)}.`,
    );
  }
  if (snapshot) {
    const per = 1000 / snapshot.validations;
    lines.push(
      `Snapshot of a session with ${snapshot.validations} played happy-partners validations: ${num(snapshot.bytes / 1024 / 1024, 1)} MiB, taken and sent in ${num(snapshot.ms, 0)} ms, restored into a new session in ${num(snapshot.restoreMs, 0)} ms ` +
        `(per 1,000 validations: ${num((snapshot.bytes * per) / 1024 / 1024, 1)} MiB, ${num(snapshot.ms * per, 0)} ms to take, ${num(snapshot.restoreMs * per, 0)} ms to restore).`,
    );
  }
  lines.push(
    '',
    'RSS is the server process as the kernel reports it (/proc), garbage not yet collected included; every line is a fresh server. Times include the creations (one after the other in each world, the worlds at once) and the runs until every delivery ended.',
  );
  console.log(lines.join('\n'));
}

if (process.argv.includes('--receivers')) runReceivers();
else
  main().catch((error) => {
    console.error(`bench:sessions could not measure: ${error.stack || error.message}`);
    process.exit(1);
  });
