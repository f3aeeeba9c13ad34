#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:hostile`: what one hostile client does to everyone else. Each probe in
 * bench/hostile/ (one problem of a shared instance: a request with 60,000 unknown fields, a huge
 * scenario upload, a receiver that never answers, hundreds of stream readers, readers that never
 * read) runs against a fresh `bvs-mock serve` (HTTPS on 127.0.0.1, the built package, as users run
 * it) while this script asks `GET /_mock/health` every 200 ms on a fresh connection. It prints,
 * per probe, the slowest health answer while idle and while under attack (and their ratio), health
 * calls that failed, the server's peak resident memory, whether it stopped on SIGTERM, and what the
 * attack saw. Target: health answers within 1 s under every attack.
 *
 * It reports and exits 0 even when a target is missed; it exits 1 only when a probe could not run.
 * Environment: BENCH_HOSTILE_ONLY=4,5 runs those problems only.
 * A probe module exports { problem, title, serveArgs (array, or async ({ tmpDir }) => array),
 * attack({ url, ca, apiKey, request }) => Promise<string> }.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./free-port');

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'bvs-mock.js');
const PROBES = path.join(__dirname, 'hostile');
const API_KEY = 'test_key_default';
const POLL_EVERY_MS = 200;
/** A health call slower than this counts as failed: the target is 1 s, this is what "frozen" means. */
const POLL_TIMEOUT_MS = 5_000;
const TARGET_MS = 1_000;
const IDLE_MS = 2_000;
/** No probe may run longer than this; the server is stopped and the probe reported as overrun. */
const ATTACK_LIMIT_MS = 120_000;
const START_LIMIT_MS = 120_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

/** One HTTPS request on a connection of its own; resolves with { status, headers, body, ms } or rejects. */
function request(base, ca, target, { method = 'GET', headers = {}, body, timeoutMs = 30_000 } = {}) {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const call = https.request(new URL(target, base), { method, headers, ca, agent: false, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks), ms: since(started) }));
      response.on('error', reject);
    });
    call.on('timeout', () => call.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    call.on('error', reject);
    call.end(body);
  });
}

/** Peak and current resident memory of a process, in MB, from /proc (Linux). */
function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
  } catch {
    return { peakMb: NaN, rssMb: NaN };
  }
}

/** Asks for health every POLL_EVERY_MS until stopped; each call on a fresh connection. */
function pollHealth(base, ca) {
  const samples = [];
  let failures = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = process.hrtime.bigint();
      try {
        const answer = await request(base, ca, '/_mock/health', { timeoutMs: POLL_TIMEOUT_MS });
        if (answer.status !== 200) failures.push(`status ${answer.status}`);
        samples.push(answer.ms);
      } catch (error) {
        failures.push(error.code ?? error.message);
        samples.push(since(started));
      }
      await sleep(POLL_EVERY_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { max: Math.max(0, ...samples), count: samples.length, failures };
    },
  };
}

async function runProbe(probe) {
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), `bvs-hostile-${probe.problem}-`));
  const port = await freePort();
  const certificate = path.join(tmpDir, 'certificate.pem');
  const extra = typeof probe.serveArgs === 'function' ? await probe.serveArgs({ tmpDir }) : (probe.serveArgs ?? []);
  const args = [BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--quiet', '--seed', '1', '--write-certificate', certificate, ...extra];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2_000)));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const base = `https://127.0.0.1:${port}`;
  const result = { problem: probe.problem, title: probe.title };
  try {
    const started = process.hrtime.bigint();
    let ca;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`bvs-mock exited with ${child.exitCode} before it was healthy: ${stderr.trim()}`);
      if (since(started) > START_LIMIT_MS) throw new Error(`bvs-mock was not healthy within ${START_LIMIT_MS} ms`);
      try {
        ca ??= fs.readFileSync(certificate, 'utf8');
        if ((await request(base, ca, '/_mock/health', { timeoutMs: 1_000 })).status === 200) break;
      } catch {
        // Not listening yet.
      }
      await sleep(20);
    }
    result.healthyMs = since(started);
    const idle = pollHealth(base, ca);
    await sleep(IDLE_MS);
    result.idle = await idle.stop();
    const busy = pollHealth(base, ca);
    let timer;
    try {
      result.summary = await Promise.race([
        probe.attack({ url: base, ca, apiKey: API_KEY, request: (target, options) => request(base, ca, target, options) }),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the attack ran over ${ATTACK_LIMIT_MS} ms`)), ATTACK_LIMIT_MS))),
      ]);
    } catch (error) {
      result.summary = `attack failed: ${error.message}`;
    } finally {
      clearTimeout(timer);
    }
    result.busy = await busy.stop();
    result.memory = memoryOf(child.pid);
  } catch (error) {
    result.error = error.message;
  } finally {
    const stopStarted = process.hrtime.bigint();
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited, sleep(10_000).then(() => null)]);
    result.stop = stopped === null ? 'did not stop within 10 s of SIGTERM' : `exit ${stopped.code ?? stopped.signal} in ${Math.round(since(stopStarted))} ms`;
    if (stopped === null) child.kill('SIGKILL');
    await exited;
    children.delete(child);
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
  return result;
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm run bench:hostile does)');
  const only = process.env.BENCH_HOSTILE_ONLY ? new Set(process.env.BENCH_HOSTILE_ONLY.split(',').map(Number)) : null;
  const probes = fs
    .readdirSync(PROBES)
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => require(path.join(PROBES, name)))
    .filter((probe) => only === null || only.has(probe.problem));
  process.stdout.write(`bvs-mock under hostile clients: GET /_mock/health every ${POLL_EVERY_MS} ms on a fresh connection, target under ${TARGET_MS} ms\n\n`);
  let broken = false;
  for (const probe of probes) {
    process.stdout.write(`problem ${probe.problem}: ${probe.title}\n`);
    const result = await runProbe(probe);
    if (result.error) {
      broken = true;
      process.stdout.write(`  could not run: ${result.error}\n  stop: ${result.stop}\n\n`);
      continue;
    }
    const ratio = result.busy.max / Math.max(1, result.idle.max);
    const verdict = result.busy.max < TARGET_MS && result.busy.failures.length === 0 ? 'ok' : 'MISSED';
    process.stdout.write(
      [
        `  healthy after start: ${Math.round(result.healthyMs)} ms`,
        `  slowest health, idle: ${Math.round(result.idle.max)} ms; under attack: ${Math.round(result.busy.max)} ms (${ratio.toFixed(1)} x idle, ${result.busy.count} calls, ${result.busy.failures.length} failed${result.busy.failures.length ? `: ${[...new Set(result.busy.failures)].join(', ')}` : ''}) ${verdict}`,
        `  server memory: peak ${result.memory.peakMb} MB, at the end ${result.memory.rssMb} MB`,
        `  stop: ${result.stop}`,
        `  attack: ${result.summary}`,
      ].join('\n') + '\n\n',
    );
  }
  if (broken) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`bench:hostile: ${error.stack ?? error}\n`);
  process.exit(1);
});
