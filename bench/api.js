#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:api`: how fast the standalone server answers, next to a bare `node:http`
 * server, a plain express 5 app and Prism's mock, all on loopback in one run, each server in its
 * own child process so the load generator (autocannon, in this process) never shares an event
 * loop with a server. Then a sustained run: a fresh `bvs-mock serve --http` (default retention)
 * takes creations for BENCH_API_SUSTAINED seconds while its RSS is sampled every second.
 * Targets: GET of a validation at least 0.5 x bare node:http (same body bytes), 0.6 x express
 * and 2 x Prism; POST of a validation at least 1 x express's GET; `bvs-mock serve` healthy within
 * 1 s; 60 s of sustained creation ending under 500 MB RSS with the default retention.
 * Runs the built package (bin/ over the one-file bundle), as users do. It reports and exits 0 even when a
 * target is missed; it exits 1 only when something could not be measured at all.
 *
 * Environment: BENCH_API_DURATION (s, default 8), BENCH_API_WARMUP (s, default 2),
 * BENCH_API_SUSTAINED (s, default 60; 0 skips the sustained run),
 * BENCH_API_CPU_PROF=dir runs the bvs-mock server child under `node --cpu-prof` into dir.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./free-port');
const { busyShare } = require('./busy-share');
const autocannon = require('autocannon');

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'bvs-mock.js');
const BASELINE = path.join(__dirname, 'express-baseline.js');
const BARE_BASELINE = path.join(__dirname, 'bare-node-baseline.js');
const DOCUMENT = path.join(ROOT, 'openapi', 'openapi.yaml');
const API_KEY = 'test_key_default';
const AUTH = { authorization: `Bearer ${API_KEY}` };
/** The TIN of the built-in happy-partners scenario: three runs, one consolidated report. */
const HAPPY = { tin: '76920415-6', country: 'CL' };
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_API_DURATION || 8);
const WARMUP_S = Number(process.env.BENCH_API_WARMUP || 2);
const SUSTAINED_S = process.env.BENCH_API_SUSTAINED ? Number(process.env.BENCH_API_SUSTAINED) : 60;
/** Resident memory the sustained run must end under, with the default retention. */
const SUSTAINED_RSS_TARGET_MB = 500;
/** What the bare node:http contender must send, as bvs-mock does. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const CPU_PROF_DIR = process.env.BENCH_API_CPU_PROF;
const POLL_MS = 20;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bvs-bench-api-'));
/** Every child still running; the 'exit' handler kills what the finally blocks did not stop. */
const children = new Set();
/** Every port a contender listened on, checked closed at the end. */
const ports = new Set();

process.on('exit', () => {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Spawns `node ...args` with its output piped (kept as a short tail for error messages) or sent to a log file. */
function launch(name, args, { log, nodeFlags = [], cwd = ROOT } = {}) {
  const file = log ? path.join(tmp, `${log}.log`) : undefined;
  const fd = file ? fs.openSync(file, 'a') : undefined;
  const child = spawn(process.execPath, [...nodeFlags, ...args], { cwd, stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'] });
  if (fd !== undefined) fs.closeSync(fd);
  children.add(child);
  child.label = name;
  child.logFile = file;
  child.output = '';
  const keep = (chunk) => {
    child.output = (child.output + chunk).slice(-16_384);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  child.exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(signal || code);
    });
  });
  child.once('error', (error) => {
    child.output += `\n${error.message}`;
  });
  return child;
}

/** What the child printed lately, for an error message. */
function tailOf(child) {
  const text = child.logFile && fs.existsSync(child.logFile) ? fs.readFileSync(child.logFile, 'utf8') : child.output;
  return text.trim().split('\n').slice(-5).join('\n') || '(no output)';
}

/** Stops a child: SIGTERM, then SIGKILL after 3 s. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const outcome = await Promise.race([child.exited, sleep(3_000).then(() => 'timeout')]);
  if (outcome === 'timeout') {
    child.kill('SIGKILL');
    await child.exited;
  }
}

/** Resolves the URL of a child's `listening on http(s)://...` line. */
function listeningUrl(child, timeoutMs = 15_000) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on (https?:\/\/[^\s]+)/.exec(child.output);
      if (match) finish(null, match[1]);
    };
    const onExit = () => finish(new Error(`${child.label} exited before listening:\n${tailOf(child)}`));
    const timer = setTimeout(() => finish(new Error(`${child.label} printed no "listening on" line within ${timeoutMs} ms:\n${tailOf(child)}`)), timeoutMs);
    function finish(error, url) {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.off('exit', onExit);
      if (error) reject(error);
      else {
        ports.add(Number(new URL(url).port));
        resolve(url);
      }
    }
    child.stdout.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

/** One request without keep-alive; resolves status, headers and body text, or rejects on a connection error. */
function request(url, { method = 'GET', headers = {}, body } = {}) {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(target, { method, headers, agent: false, rejectUnauthorized: false, timeout: 5_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within 5 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Calls `ask` every 20 ms until it returns true; connection errors mean "not yet". */
async function pollUntil(child, what, ask, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${child.label} exited while waiting for ${what}:\n${tailOf(child)}`);
    try {
      const answer = await ask();
      if (answer === true) return;
      last = answer;
    } catch (error) {
      last = error.code || error.message;
    }
    if (Date.now() > deadline) throw new Error(`${child.label}: ${what} not reached within ${timeoutMs} ms (last: ${last})`);
    await sleep(POLL_MS);
  }
}

/** Whether something still accepts connections on the port. */
function isListening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resident memory of a process in MB (Linux), or null. */
function rssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** `bvs-mock serve --http --clock instant` in a child; resolves the child and its base URL. */
async function startBvsMock() {
  const nodeFlags = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF_DIR)}`] : [];
  const child = launch('bvs-mock serve --http', [BIN, 'serve', '--http', '--port', '0', '--clock', 'instant'], { nodeFlags });
  return { child, url: await listeningUrl(child) };
}

/** Creates a happy-partners validation and waits until the instant clock has played it to its consolidated report. */
async function playedValidation(bvs) {
  const created = await request(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(HAPPY),
  });
  if (created.status !== 201) throw new Error(`bvs-mock: POST /api/v2/entity_validations answered ${created.status}: ${created.body.slice(0, 300)}`);
  const { id } = JSON.parse(created.body);
  const url = `${bvs.url}/api/v2/entity_validations/${id}`;
  let body;
  await pollUntil(
    bvs.child,
    `a consolidated_report_url on ${id}`,
    async () => {
      const answer = await request(url, { headers: AUTH });
      if (answer.status !== 200) return `status ${answer.status}`;
      body = answer.body;
      return JSON.parse(body).data_source_run_batches?.[0]?.consolidated_report_url != null ? true : 'report not ready';
    },
    10_000,
  );
  return { id, path: `/api/v2/entity_validations/${id}`, body };
}

/**
 * The container image's layout in a scratch folder: the one-file bundle (scripts/bundle-server.js), bin/,
 * scenarios/, openapi/ and package.json, with its code cache made as the image makes it (`scenarios` once).
 */
function imageLayout() {
  const run = (args, cwd) => require('node:child_process').execFileSync(process.execPath, args, { cwd, stdio: 'ignore' });
  run([path.join(ROOT, 'scripts', 'bundle-server.js')], ROOT);
  const dir = path.join(tmp, 'image');
  for (const part of ['bundle', 'bin', 'scenarios', 'openapi', 'package.json']) fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
  run([path.join(dir, 'bin', 'bvs-mock.js'), 'scenarios'], dir);
  return dir;
}

/** Time from spawning `bvs-mock serve` (HTTPS, the default) to `GET /_mock/health` answering 200; from `root` (the image's layout) when given. */
async function bvsStartup(root = ROOT) {
  const started = process.hrtime.bigint();
  const child = launch('bvs-mock serve (HTTPS)', [path.join(root, 'bin', 'bvs-mock.js'), 'serve', '--port', '0'], { cwd: root });
  try {
    const url = await listeningUrl(child);
    await pollUntil(
      child,
      'GET /_mock/health 200',
      async () => {
        const answer = await request(`${url}/_mock/health`);
        return answer.status === 200 ? true : `status ${answer.status}`;
      },
      15_000,
    );
    return since(started);
  } finally {
    await stop(child);
  }
}

/** Spawns Prism's mock and waits for its first 2xx answer on the measured path; resolves the child, URL and start time. */
async function startPrism(apiPath) {
  const port = await freePort();
  ports.add(port);
  const url = `http://127.0.0.1:${port}`;
  const started = process.hrtime.bigint();
  const prism = fs.realpathSync(path.join(ROOT, 'node_modules', '.bin', 'prism'));
  const child = launch('prism mock', [prism, 'mock', DOCUMENT, '-p', String(port), '-h', '127.0.0.1', '-v', 'error'], { log: `prism-${port}` });
  try {
    let body;
    await pollUntil(
      child,
      `a 2xx answer on GET ${apiPath}`,
      async () => {
        const answer = await request(`${url}${apiPath}`, { headers: AUTH });
        body = answer.body;
        return answer.status >= 200 && answer.status < 300 ? true : `status ${answer.status}`;
      },
      30_000,
    );
    return { child, url, ms: since(started), body };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

/** A warm-up run, then the measured run; resolves 2xx answers per second and p99 latency. */
async function load(name, options) {
  const base = { connections: CONNECTIONS, ...options };
  await autocannon({ ...base, duration: WARMUP_S });
  const result = await autocannon({ ...base, duration: DURATION_S });
  const ok = result['2xx'];
  const failed = result.non2xx + result.errors + result.timeouts;
  if (ok === 0) throw new Error(`${name}: no 2xx answer under load (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`);
  return {
    rps: ok / result.duration,
    p99: result.latency.p99,
    ok,
    failed,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    sent: result.requests.sent,
  };
}

/**
 * A fresh `bvs-mock serve --http` (default retention, instant clock: every creation is played to
 * its end) takes happy-partners creations from autocannon for SUSTAINED_S seconds, no warm-up;
 * its RSS is sampled every second and once more when the clock has caught up. Resolves the
 * load figures, the RSS samples and what `GET /_mock/health` says about retention at the end.
 */
async function sustainedCreation() {
  const child = launch('bvs-mock serve --http (sustained)', [BIN, 'serve', '--http', '--port', '0', '--clock', 'instant']);
  try {
    const url = await listeningUrl(child);
    const started = Date.now();
    const samples = [];
    const sample = () => {
      const mb = rssMb(child.pid);
      if (mb != null) samples.push({ s: (Date.now() - started) / 1000, mb });
    };
    sample();
    const sampler = setInterval(sample, 1_000);
    let result;
    try {
      result = await autocannon({
        url: `${url}/api/v2/entity_validations`,
        connections: CONNECTIONS,
        duration: SUSTAINED_S,
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify(HAPPY),
      });
    } finally {
      clearInterval(sampler);
    }
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited during the run:\n${tailOf(child)}`);
    // Let the instant clock finish playing what was created before the last reading.
    await request(`${url}/_mock/clock/run`, { method: 'POST' }).catch(() => undefined);
    sample();
    const health = await request(`${url}/_mock/health`);
    if (health.status !== 200) throw new Error(`GET /_mock/health answered ${health.status} after the run: ${health.body.slice(0, 300)}`);
    const retention = JSON.parse(health.body).retention ?? null;
    const ok = result['2xx'];
    if (ok === 0) throw new Error(`no 2xx answer under load (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`);
    if (samples.length < 2) throw new Error('no RSS reading of the server (no /proc?)');
    return {
      ok,
      rps: ok / result.duration,
      seconds: result.duration,
      p99: result.latency.p99,
      failed: result.non2xx + result.errors + result.timeouts,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      samples,
      rssPeak: Math.max(...samples.map((entry) => entry.mb)),
      rssFinal: samples[samples.length - 1].mb,
      retention,
    };
  } finally {
    await stop(child);
  }
}

/** Runs one measurement; a failure is recorded (the script then exits 1) instead of stopping the others. */
const failures = [];
async function attempt(name, run) {
  try {
    return await run();
  } catch (error) {
    failures.push(`${name}: ${error.message}`);
    return null;
  }
}

function row(cells) {
  return `| ${cells.join(' | ')} |`;
}
const int = (value) => Math.round(value).toLocaleString('en-US');
const ratioCell = (value, unit) => (value == null || !Number.isFinite(value) ? 'n/a' : `${value.toFixed(2)}${unit ? ` × ${unit}` : ''}`);
const mark = (ok) => (ok == null ? 'not measured' : ok ? 'pass' : 'FAIL');

async function main() {
  const busy = await busyShare();
  // Start-up first, on a quiet machine.
  const bvsStarts = await attempt('bvs-mock start-up', async () => {
    const times = [];
    for (let i = 0; i < 5; i += 1) times.push(await bvsStartup());
    return times;
  });
  const imageStarts = await attempt('bvs-mock start-up, image layout', async () => {
    const dir = imageLayout();
    const times = [];
    for (let i = 0; i < 5; i += 1) times.push(await bvsStartup(dir));
    return times;
  });
  const bareStarts = await attempt('bare node:http start-up', async () => {
    const body = path.join(tmp, 'startup-body.json');
    fs.writeFileSync(body, '{}');
    const times = [];
    for (let i = 0; i < 5; i += 1) {
      const started = process.hrtime.bigint();
      const child = launch('bare node:http baseline', [BARE_BASELINE, body]);
      try {
        const url = await listeningUrl(child);
        await pollUntil(child, 'an answer', async () => ((await request(`${url}/`)).status > 0 ? true : 'no answer'), 15_000);
        times.push(since(started));
      } finally {
        await stop(child);
      }
    }
    return times;
  });

  const bvs = await attempt('bvs-mock serve --http', startBvsMock);
  let validation = null;
  let express = null;
  let bare = null;
  let prism = null;
  let prismStarts;
  let bodyFile = null;
  const figures = {};
  try {
    if (bvs) validation = await attempt('bvs-mock validation', () => playedValidation(bvs));
    if (validation) {
      bodyFile = path.join(tmp, 'validation.json');
      fs.writeFileSync(bodyFile, validation.body);
      express = await attempt('express baseline', async () => {
        const child = launch('express baseline', [BASELINE, bodyFile]);
        const url = await listeningUrl(child);
        const answer = await request(`${url}${validation.path}`);
        if (answer.status !== 200 || JSON.stringify(JSON.parse(answer.body)) !== JSON.stringify(JSON.parse(validation.body)))
          throw new Error(`express baseline answered ${answer.status} with another body`);
        return { child, url };
      });
      bare = await attempt('bare node:http baseline', async () => {
        const child = launch('bare node:http baseline', [BARE_BASELINE, bodyFile]);
        const url = await listeningUrl(child);
        const answer = await request(`${url}${validation.path}`, { headers: AUTH });
        if (answer.status !== 200 || answer.body !== validation.body || answer.headers['content-type'] !== JSON_CONTENT_TYPE) {
          throw new Error(
            `bare node:http baseline answered ${answer.status} (${answer.headers['content-type']}) with ${answer.body === validation.body ? 'the same' : 'another'} body`,
          );
        }
        return { child, url };
      });
    }
    const apiPath = validation ? validation.path : '/api/v2/entity_validations/evl_01KF0HJ080ZK2AP2QT8FV1CM07';
    prismStarts = await attempt('Prism start-up', async () => {
      const times = [];
      for (let i = 0; i < 3; i += 1) {
        const started = await startPrism(apiPath);
        times.push(started.ms);
        // The last one stays up for the load.
        if (i < 2) await stop(started.child);
        else prism = started;
      }
      return times;
    });

    const get = (url) => ({ url: `${url}${apiPath}`, headers: AUTH });
    if (express) figures.express = await attempt('express GET', () => load('express GET', get(express.url)));
    if (bare) figures.bare = await attempt('bare node:http GET', () => load('bare node:http GET', get(bare.url)));
    if (validation) figures.bvsGet = await attempt('bvs-mock GET', () => load('bvs-mock GET', get(bvs.url)));
    if (prism) figures.prism = await attempt('Prism GET', () => load('Prism GET', get(prism.url)));
    if (bvs) {
      figures.bvsPost = await attempt('bvs-mock POST', async () => {
        const before = rssMb(bvs.child.pid);
        let peak = before ?? 0;
        const sampler = setInterval(() => (peak = Math.max(peak, rssMb(bvs.child.pid) ?? 0)), 100);
        try {
          const result = await load('bvs-mock POST', {
            url: `${bvs.url}/api/v2/entity_validations`,
            method: 'POST',
            headers: { ...AUTH, 'content-type': 'application/json' },
            body: JSON.stringify(HAPPY),
          });
          await request(`${bvs.url}/_mock/clock/run`, { method: 'POST' }).catch(() => undefined);
          const after = rssMb(bvs.child.pid);
          return { ...result, rssBefore: before, rssPeak: Math.max(peak, after ?? 0), rssAfter: after };
        } finally {
          clearInterval(sampler);
        }
      });
    }
    figures.bodies = {
      bvs: validation ? Buffer.byteLength(validation.body) : null,
      prism: prism ? Buffer.byteLength(prism.body) : null,
    };
  } finally {
    for (const contender of [prism, express, bare, bvs]) if (contender) await stop(contender.child);
  }

  // Last, alone on the machine: a long run of creations against a fresh server.
  if (SUSTAINED_S > 0) figures.sustained = await attempt('bvs-mock sustained POST', sustainedCreation);
  else if (!(SUSTAINED_S === 0)) failures.push(`bvs-mock sustained POST: BENCH_API_SUSTAINED=${process.env.BENCH_API_SUSTAINED} is not a number of seconds`);

  const stillOpen = [];
  for (const port of ports) if (await isListening(port)) stillOpen.push(port);
  print({ busy, bvsStarts, imageStarts, bareStarts, prismStarts, figures, stillOpen });
  if (failures.length > 0) {
    process.stderr.write(`\nbench: not measured:\n${failures.map((failure) => `- ${failure}`).join('\n')}\n`);
    process.exitCode = 1;
  }
  if (stillOpen.length > 0) process.exitCode = 1;
}

function print({ busy, bvsStarts, imageStarts, bareStarts, prismStarts, figures, stillOpen }) {
  const { express, bare, bvsGet, prism, bvsPost, sustained, bodies } = figures;
  const cells = (figure) => (figure ? [int(figure.rps), `${figure.p99} ms`] : ['not measured', '—']);
  const ratio = (a, b) => (a && b ? a.rps / b.rps : null);
  const getVsExpress = ratio(bvsGet, express);
  const getVsPrism = ratio(bvsGet, prism);
  const getVsBare = ratio(bvsGet, bare);
  const bareVsExpress = ratio(bare, express);
  const postVsExpress = ratio(bvsPost, express);
  const prismVsExpress = ratio(prism, express);
  const bvsStart = bvsStarts ? median(bvsStarts) : null;
  const imageStart = imageStarts ? median(imageStarts) : null;
  const bareStart = bareStarts ? median(bareStarts) : null;
  const prismStart = prismStarts ? median(prismStarts) : null;
  const range = (times) => `${Math.round(Math.min(...times))}–${Math.round(Math.max(...times))}`;
  const check = (value, ok) => (value == null ? null : ok);
  const cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;

  const lines = [
    `bvs-mock API benchmark (node ${process.version}, ${cores} cores, ${os.platform()})`,
    `autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s measured per row, 127.0.0.1 only.`,
    'Every contender serves plain HTTP (bvs-mock with --http) so TLS cost does not skew the comparison; each runs in its own child process.',
    'Figures are noisy: expect ±30% between runs on this 2-core machine (autocannon and the server share the two cores).',
    busy == null
      ? 'CPU use before the run: unknown.'
      : `CPU busy before the run: ${Math.round(busy * 100)}% of ${cores} cores${busy > 0.15 ? ' (other work is running: figures will be lower and noisier than on an idle machine)' : ''}.`,
    '',
    row(['measure', 'requests/s (2xx)', 'p99', 'ratio', 'target', 'result']),
    row(['---', '---', '---', '---', '---', '---']),
    row(['express 5 baseline: GET /api/v2/entity_validations/:id, same body, res.json', ...cells(express), '1.00 (reference)', '—', '—']),
    row([
      'bare node:http baseline: GET same path, same body bytes, status and content-type, no routing',
      ...cells(bare),
      ratioCell(bareVsExpress, 'express'),
      '—',
      '—',
    ]),
    row([
      'bvs-mock GET /api/v2/entity_validations/:id (happy-partners, played)',
      ...cells(bvsGet),
      ratioCell(getVsExpress, 'express'),
      '≥ 0.6 × express',
      mark(check(getVsExpress, getVsExpress >= 0.6)),
    ]),
    row(['Prism 5.14.2 mock: GET same path, evl_ id', ...cells(prism), ratioCell(prismVsExpress, 'express'), '—', '—']),
    row([
      'bvs-mock GET vs bare node:http GET',
      '',
      '',
      ratioCell(getVsBare, 'bare node:http'),
      '≥ 0.5 × bare node:http',
      mark(check(getVsBare, getVsBare >= 0.5)),
    ]),
    row(['bvs-mock GET vs Prism GET', '', '', ratioCell(getVsPrism, 'Prism'), '≥ 2 × Prism', mark(check(getVsPrism, getVsPrism >= 2))]),
    row([
      'bvs-mock POST /api/v2/entity_validations (happy-partners TIN, each creates and plays one)',
      ...cells(bvsPost),
      ratioCell(postVsExpress, 'express GET'),
      '≥ 1 × express GET',
      mark(check(postVsExpress, postVsExpress >= 1)),
    ]),
    row([
      `bvs-mock sustained POST creation, ${SUSTAINED_S > 0 ? `${SUSTAINED_S} s` : 'skipped (BENCH_API_SUSTAINED=0)'}, fresh server, no warm-up, default retention (requests/s = creations/s)`,
      ...(SUSTAINED_S > 0 ? cells(sustained) : ['—', '—']),
      sustained ? `final RSS ${Math.round(sustained.rssFinal)} MB (peak ${Math.round(sustained.rssPeak)} MB)` : SUSTAINED_S > 0 ? 'not measured' : '—',
      `final RSS < ${SUSTAINED_RSS_TARGET_MB} MB with the default retention`,
      SUSTAINED_S > 0 ? mark(sustained ? sustained.rssFinal < SUSTAINED_RSS_TARGET_MB : null) : 'skipped',
    ]),
    row([
      'bvs-mock serve (HTTPS) spawn to GET /_mock/health 200, median of 5',
      '—',
      '—',
      bvsStart == null ? 'not measured' : `${Math.round(bvsStart)} ms (${range(bvsStarts)})`,
      '< 1000 ms',
      mark(check(bvsStart, bvsStart < 1000)),
    ]),
    row([
      'bvs-mock serve (HTTPS) as the image runs it (one bundled file, code cache), spawn to GET /_mock/health 200, median of 5',
      '—',
      '—',
      imageStart == null
        ? 'not measured'
        : `${Math.round(imageStart)} ms (${range(imageStarts)})${bareStart != null ? `; ${ratioCell(imageStart / bareStart, 'bare node:http start')}` : ''}`,
      '< 250 ms',
      mark(check(imageStart, imageStart < 250)),
    ]),
    row([
      'bare node:http baseline spawn to first answer, median of 5',
      '—',
      '—',
      bareStart == null ? 'not measured' : `${Math.round(bareStart)} ms (${range(bareStarts)})`,
      '—',
      '—',
    ]),
    row([
      'Prism mock spawn to first 2xx answer, median of 3',
      '—',
      '—',
      prismStart == null
        ? 'not measured'
        : `${Math.round(prismStart)} ms (${range(prismStarts)})${bvsStart != null ? `; bvs-mock ${ratioCell(bvsStart / prismStart, 'Prism')}` : ''}`,
      '—',
      '—',
    ]),
  ];
  const notes = [];
  if (bodies && bodies.bvs != null)
    notes.push(
      `Body sizes: bvs-mock, bare node:http and express ${bodies.bvs} bytes${bodies.prism != null ? `; Prism ${bodies.prism} bytes (its static example from the document)` : ''}.`,
    );
  for (const [name, figure] of [
    ['express GET', express],
    ['bare node:http GET', bare],
    ['bvs-mock GET', bvsGet],
    ['Prism GET', prism],
    ['bvs-mock POST', bvsPost],
    ['bvs-mock sustained POST', sustained],
  ]) {
    if (figure && figure.failed > 0)
      notes.push(`${name}: ${figure.non2xx} non-2xx answers and ${figure.errors} errors/timeouts besides ${figure.ok} 2xx (excluded from requests/s).`);
  }
  if (bvsPost) {
    const mb = (value) => (value == null ? '?' : `${Math.round(value)} MB`);
    notes.push(
      `bvs-mock POST: ${int(bvsPost.ok)} validations created in the ${DURATION_S} s (plus the warm-up's), each played to the end by the instant clock and kept until reset; server RSS ${mb(bvsPost.rssBefore)} before, peak ${mb(bvsPost.rssPeak)}, ${mb(bvsPost.rssAfter)} after.`,
    );
  }
  if (sustained) {
    const mb = (value) => `${Math.round(value)} MB`;
    const every = Math.max(1, Math.round(SUSTAINED_S / 12));
    const trace = sustained.samples
      .filter((entry, index) => index % every === 0 || index === sustained.samples.length - 1)
      .map((entry) => `${Math.round(entry.s)} s ${mb(entry.mb)}`);
    notes.push(
      `bvs-mock sustained POST: ${int(sustained.ok)} validations created in ${sustained.seconds} s (${int(sustained.rps)} creations/s, p99 ${sustained.p99} ms), each played to the end by the instant clock; ` +
        `server RSS peak ${mb(sustained.rssPeak)}, final ${mb(sustained.rssFinal)} (target < ${SUSTAINED_RSS_TARGET_MB} MB: ${sustained.rssFinal < SUSTAINED_RSS_TARGET_MB ? 'met' : 'not met'}); ${sustained.samples.length} samples, 1 per second.`,
    );
    notes.push(`bvs-mock sustained POST, RSS over time: ${trace.join(', ')}.`);
    notes.push(`bvs-mock sustained POST, GET /_mock/health at the end: retention ${JSON.stringify(sustained.retention)}.`);
  }
  notes.push('Prism runs with `-v error` (its info log writes a line per request) and its output goes to a temp file.');
  if (CPU_PROF_DIR) notes.push(`CPU profile of the bvs-mock server child written to ${path.resolve(CPU_PROF_DIR)}.`);
  notes.push(
    stillOpen.length === 0
      ? `All child processes stopped; none of the ${ports.size} ports used is listening.`
      : `Ports still listening after stop: ${stillOpen.join(', ')}.`,
  );
  process.stdout.write(`${lines.join('\n')}\n\n${notes.join('\n')}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.stack || error}\n`);
  process.exitCode = 1;
});
