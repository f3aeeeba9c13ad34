#!/usr/bin/env node
'use strict';
/**
 * `npm run -s build && node --expose-gc bench/delivery.js`: how fast webhook delivery carries a
 * heavy instant-clock run to a real receiver, and that nothing is lost or reordered on the way.
 * Targets (issue "Webhook delivery"): 1,000 happy-partners validations (TIN 76920415-6) delivered
 * to one local receiver in under 30 s with peak RSS under 500 MB, every event exactly once and in
 * order per validation; then the same with the receiver failing 30% of attempts (seeded): every
 * record ends succeeded and every event arrives at least once.
 *
 * The receiver runs in a child process (this file, forked with --receiver), so it does not share
 * the event loop it is measuring. It correlates each body to its validation from the payload's own
 * ids (stakeholder and child batches map partners and their batches to the main validation).
 * Runs against the built package (dist/), as users do. Prints figures and ratios to the targets;
 * exits 0 after printing even when a target is missed, 1 only when something could not be measured.
 */
const { fork } = require('node:child_process');
const { createHash } = require('node:crypto');
const http = require('node:http');

const VALIDATIONS = 1000;
const TIN = '76920415-6';
const FAILURE_SHARE = 0.3;
const FAILURE_SEED = 20260115;
const TARGET_MS = 30_000;
const TARGET_RSS_MB = 500;
const PHASE_LIMIT_MS = 300_000;

const sha1 = (text) => createHash('sha1').update(text).digest('hex');

// ---------------------------------------------------------------------------------------------
// The receiver (child process).

/** The project's seeded random source: the same failures on every run. */
function seeded(seed) {
  // Required here, in the receiver child, so the parent's memory figures are not touched by it.
  const { createRandom } = require('../dist/engine');
  const random = createRandom(seed);
  return () => random.next();
}

/** The ids a body carries: its key (type and resource id), its entity validation and batch, and what it says about partners. */
function describe(body) {
  const type = body.type;
  if (body.data_source_run) {
    const run = body.data_source_run;
    return { key: `${type} ${run.id}`, evl: run.entity_validation_id, batch: run.data_source_run_batch_id };
  }
  if (body.data_source_run_batch) {
    const batch = body.data_source_run_batch;
    const children = (batch.child_batches || []).map((child) => ({ evl: child.entity_validation_id, batch: child.id }));
    return { key: `${type} ${batch.id}`, evl: batch.entity_validation_id, batch: batch.id, children };
  }
  if (body.stakeholder) {
    const validation = body.stakeholder;
    const children = (validation.related_entities || []).map((entity) => ({ evl: entity.id, batch: null }));
    for (const batch of validation.data_source_run_batches || [])
      for (const child of batch.child_batches || []) children.push({ evl: child.entity_validation_id, batch: child.id });
    return { key: `${type} ${validation.id}`, evl: validation.id, batch: null, children };
  }
  const resource = Object.entries(body).find(([name]) => name !== 'type');
  const value = resource ? resource[1] : {};
  return { key: `${type} ${value.id}`, evl: value.entity_validation_id || null, batch: null };
}

function runReceiver() {
  let random = () => 1;
  let failShare = 0;
  let state;
  const resetState = () => {
    state = {
      requests: 0,
      failedAnswers: 0,
      afterSuccess: 0,
      counts: new Map(),
      answered200: new Set(),
      arrivals: [],
      rootOfEvl: new Map(),
      rootOfBatch: new Map(),
      peakRss: 0,
    };
  };
  resetState();
  const sampler = setInterval(() => {
    state.peakRss = Math.max(state.peakRss, process.memoryUsage().rss);
  }, 20);
  sampler.unref();

  const server = http.createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const hash = sha1(raw);
      state.requests += 1;
      if (state.answered200.has(hash)) state.afterSuccess += 1;
      const seen = state.counts.get(hash) || 0;
      state.counts.set(hash, seen + 1);
      if (seen === 0) {
        // First arrival of this body: note where it belongs, and what it says about partners.
        const ids = describe(JSON.parse(raw));
        state.arrivals.push({ key: ids.key, evl: ids.evl, batch: ids.batch });
        if (ids.children && ids.evl) {
          for (const child of ids.children) {
            if (child.evl) state.rootOfEvl.set(child.evl, ids.evl);
            if (child.batch) state.rootOfBatch.set(child.batch, ids.evl);
          }
        }
      }
      const fail = failShare > 0 && random() < failShare;
      if (fail) state.failedAnswers += 1;
      else state.answered200.add(hash);
      response.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' });
      response.end(fail ? 'failing on purpose' : 'ok');
    });
  });

  process.on('message', (message) => {
    if (message.cmd === 'configure') {
      failShare = message.failShare;
      random = seeded(message.seed);
      resetState();
      process.send({ cmd: 'configured' });
    } else if (message.cmd === 'report') {
      const perValidation = {};
      for (const arrival of state.arrivals) {
        const root = state.rootOfEvl.get(arrival.evl) || state.rootOfBatch.get(arrival.batch) || arrival.evl;
        (perValidation[root] = perValidation[root] || []).push(arrival.key);
      }
      process.send({
        cmd: 'report',
        requests: state.requests,
        distinct: state.counts.size,
        failedAnswers: state.failedAnswers,
        afterSuccess: state.afterSuccess,
        counts: Object.fromEntries(state.counts),
        perValidation,
        peakRssMb: Math.max(state.peakRss, process.memoryUsage().rss) / 2 ** 20,
      });
    } else if (message.cmd === 'stop') {
      server.close();
      process.disconnect();
    }
  });
  server.listen(0, '127.0.0.1', () => process.send({ cmd: 'listening', port: server.address().port }));
}

// ---------------------------------------------------------------------------------------------
// The bench (parent process).

function startReceiver() {
  const child = fork(__filename, ['--receiver'], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  child.on('message', (message) => {
    const resolve = waiting.get(message.cmd);
    if (resolve) {
      waiting.delete(message.cmd);
      resolve(message);
    }
  });
  const expect = (cmd, timeoutMs = 60_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`receiver: no ${cmd} answer within ${timeoutMs} ms`)), timeoutMs);
      waiting.set(cmd, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      child.once('exit', (code) => reject(new Error(`receiver exited (code ${code}) while waiting for ${cmd}`)));
    });
  return {
    async listening() {
      return (await expect('listening')).port;
    },
    async configure(failShare, seed) {
      const answer = expect('configured');
      child.send({ cmd: 'configure', failShare, seed });
      await answer;
    },
    async report() {
      const answer = expect('report');
      child.send({ cmd: 'report' });
      return answer;
    },
    stop() {
      if (child.connected) child.send({ cmd: 'stop' });
      setTimeout(() => child.kill(), 2000).unref();
    },
  };
}

function withLimit(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

async function phase(receiver, url, failShare) {
  const { createMock, mockParts } = require('../dist/http');
  await receiver.configure(failShare, FAILURE_SEED);
  global.gc?.();
  const mock = createMock({ clock: 'instant', webhookUrl: url });
  const emitted = [];
  const { engine, registry, deliveries } = mockParts(mock).world;
  mock.onEvent((event) => emitted.push(event));
  const organizationId = registry.defaultId;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const started = process.hrtime.bigint();
  try {
    for (let index = 0; index < VALIDATIONS; index += 1) {
      const created = engine.createValidation({ organizationId, request: { tin: TIN, country: 'CL' } });
      if (!created.ok) throw new Error(`create: ${created.message}`);
    }
    await withLimit(mock.drain(), PHASE_LIMIT_MS, 'drain');
  } finally {
    clearInterval(sampler);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);

  const counts = deliveries.counts();
  let attempts = 0;
  for (const record of deliveries.list()) attempts += record.attempts.length;
  const report = await receiver.report();
  mock.dispose();

  // Every emitted body, by hash, and the keys each validation should show, in emission order.
  let missing = 0;
  let exactlyOnce = 0;
  const expected = new Map();
  for (const event of emitted) {
    const count = report.counts[sha1(JSON.stringify(event.body))] || 0;
    if (count === 0) missing += 1;
    if (count === 1) exactlyOnce += 1;
    const keys = expected.get(event.validationId) || [];
    keys.push(`${event.type} ${event.resourceId}`);
    expected.set(event.validationId, keys);
  }
  let inOrder = 0;
  for (const [validationId, keys] of expected) {
    const arrived = report.perValidation[validationId] || [];
    if (arrived.length === keys.length && arrived.every((key, index) => key === keys[index])) inOrder += 1;
  }
  return { ms, emitted: emitted.length, validations: expected.size, counts, attempts, report, missing, exactlyOnce, inOrder, peakRssMb: peakRss / 2 ** 20 };
}

function row(cells) {
  return `| ${cells.join(' | ')} |`;
}

async function main() {
  require('../dist/http'); // fails here, before the receiver starts, when dist/ is missing
  const receiver = startReceiver();
  try {
    const port = await receiver.listening();
    const url = `http://127.0.0.1:${port}/hooks`;
    const clean = await phase(receiver, url, 0);
    const flaky = await phase(receiver, url, FAILURE_SHARE);
    const perSecond = (result) => Math.round(result.emitted / (result.ms / 1000));
    const check = (ok) => (ok ? 'yes' : 'NO');
    const lines = [
      `bvs-mock delivery benchmark (node ${process.version}, instant clock, ${VALIDATIONS} x happy-partners ${TIN}, receiver in a child process)`,
      '',
      row(['measure', 'figure', 'target', 'ratio to target (< 1 meets it)']),
      row(['---', '---', '---', '---']),
      row([
        'all delivered, receiver always 200',
        `${clean.ms.toFixed(0)} ms (${clean.emitted} events, ${perSecond(clean)} events/s)`,
        `${TARGET_MS} ms`,
        (clean.ms / TARGET_MS).toFixed(3),
      ]),
      row([
        'peak RSS, mock process',
        `${clean.peakRssMb.toFixed(0)} MB (receiver ${clean.report.peakRssMb.toFixed(0)} MB)`,
        `${TARGET_RSS_MB} MB`,
        (clean.peakRssMb / TARGET_RSS_MB).toFixed(3),
      ]),
      row([
        'every event received exactly once',
        `${check(clean.exactlyOnce === clean.emitted && clean.report.requests === clean.emitted)}: ${clean.report.requests} requests, ${clean.report.distinct} distinct bodies, ${clean.exactlyOnce} of ${clean.emitted} exactly once, ${clean.missing} missing`,
        'all',
        '-',
      ]),
      row(['per-validation order intact', `${check(clean.inOrder === clean.validations)}: ${clean.inOrder} of ${clean.validations} validations`, 'all', '-']),
      row([
        'records succeeded',
        `${check(clean.counts.succeeded === clean.emitted)}: ${clean.counts.succeeded} succeeded, ${clean.counts.failed} failed, ${clean.counts.expired} expired, ${clean.counts.pending} pending; ${clean.attempts} attempts`,
        'all',
        '-',
      ]),
      row([
        `receiver failing ${FAILURE_SHARE * 100}% of attempts (seed ${FAILURE_SEED})`,
        `${flaky.ms.toFixed(0)} ms (${flaky.emitted} events, ${perSecond(flaky)} events/s)`,
        `${TARGET_MS} ms`,
        (flaky.ms / TARGET_MS).toFixed(3),
      ]),
      row([
        'peak RSS, mock process, failing receiver',
        `${flaky.peakRssMb.toFixed(0)} MB (receiver ${flaky.report.peakRssMb.toFixed(0)} MB)`,
        `${TARGET_RSS_MB} MB`,
        (flaky.peakRssMb / TARGET_RSS_MB).toFixed(3),
      ]),
      row([
        'none lost, failing receiver',
        `${check(flaky.missing === 0 && flaky.counts.succeeded === flaky.emitted)}: ${flaky.report.distinct} of ${flaky.emitted} bodies received, ${flaky.missing} missing; records ${flaky.counts.succeeded} succeeded, ${flaky.counts.failed} failed, ${flaky.counts.expired} expired, ${flaky.counts.pending} pending`,
        'all',
        '-',
      ]),
      row([
        'duplicates from retries, failing receiver',
        `${flaky.report.requests - flaky.report.distinct} repeat requests after ${flaky.report.failedAnswers} answers of 500 (${flaky.attempts} attempts recorded); ${flaky.report.afterSuccess} repeats after a 200`,
        '0 after a 200',
        '-',
      ]),
      row([
        'per-validation order of first arrivals, failing receiver',
        `${flaky.inOrder} of ${flaky.validations} validations (retries may come later: not a target)`,
        '-',
        '-',
      ]),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    receiver.stop();
  }
}

if (process.argv[2] === '--receiver') {
  runReceiver();
} else {
  main().catch((error) => {
    process.stderr.write(`bench: could not measure: ${(error && error.stack) || error}\n`);
    process.exitCode = 1;
  });
}
