#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:retention`: a long-running bvs-mock holds its memory. Creates validations
 * through the API core (the same pipeline every transport uses: auth, journal, engine, instant
 * clock playing each tree to the end), one million by default, with the default retention, and
 * prints the process's RSS as it goes. Target (issue "Trustworthy under load"): one million
 * creations end under 500 MB with no crash. Side by side, the same run with retention effectively
 * off shows what the limit saves; it stops at 1.5 GB.
 *
 * Environment: BENCH_RETENTION_COUNT (default 1000000), BENCH_RETENTION_COMPARE=0 skips the comparison.
 * Runs against the built package (dist/), as users do. Reports and exits 0 even when the
 * target is missed; exits 1 only when a creation fails.
 */
const { createMock, mockParts } = require('../dist/http');

const COUNT = Number(process.env.BENCH_RETENTION_COUNT || 1_000_000);
const TARGET_MB = 500;
/** Where the comparison run without retention stops, however many it created. */
const STOP_UNBOUNDED_MB = 1_500;
const HEADERS = { authorization: 'Bearer test_key_default', 'content-type': 'application/json' };
/** The built-in happy-partners scenario: a main entity, two partners, twelve events. */
const BODY = Buffer.from(JSON.stringify({ tin: '76920415-6', country: 'CL' }));

const mb = (bytes) => Math.round(bytes / 1024 / 1024);

async function run(label, options, count, stopAtMb = Infinity) {
  const mock = createMock({ clock: 'instant', ...options });
  const started = process.hrtime.bigint();
  let peak = 0;
  let created = 0;
  try {
    for (; created < count; created += 1) {
      const answer = await mock.core.handle({
        method: 'POST',
        path: '/api/v2/entity_validations',
        query: new URLSearchParams(),
        headers: HEADERS,
        body: BODY,
        secure: true,
      });
      if (answer.status !== 201) throw new Error(`${label}: creation ${created + 1} answered ${answer.status}: ${String(answer.body).slice(0, 300)}`);
      if (created % 1_000 === 999) {
        // Let the instant clock play what was created, as a server between requests would.
        await mockParts(mock).world.clock.idle();
        const rss = process.memoryUsage().rss;
        peak = Math.max(peak, rss);
        if (created % 100_000 === 99_999) process.stdout.write(`  ${label}: ${(created + 1).toLocaleString('en-US')} created, RSS ${mb(rss)} MB\n`);
        if (mb(rss) > stopAtMb) {
          created += 1;
          break;
        }
      }
    }
    await mock.drain();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const health = JSON.parse(
      String(
        (await mock.core.handle({ method: 'GET', path: '/_mock/health', query: new URLSearchParams(), headers: {}, body: Buffer.alloc(0), secure: true })).body,
      ),
    );
    return { created, seconds, peakMb: mb(peak), endMb: mb(process.memoryUsage().rss), retention: health.retention };
  } finally {
    mock.dispose();
  }
}

/** One row of the table. */
function row(label, result, target, met) {
  const n = (value) => value.toLocaleString('en-US');
  return [
    label,
    n(result.created),
    result.seconds.toFixed(1),
    n(Math.round(result.created / result.seconds)),
    `${result.peakMb} MB`,
    `${result.endMb} MB`,
    n(result.retention.validations),
    n(result.retention.evicted_validations),
    target,
    met,
  ];
}

async function main() {
  process.stdout.write(`bench:retention: ${COUNT.toLocaleString('en-US')} creations of happy-partners through the API core, instant clock\n`);
  const kept = await run('default retention', {}, COUNT);
  const rows = [
    ['run', 'created', 'seconds', 'creations/s', 'peak RSS', 'RSS at end', 'validations kept', 'evicted', 'target', 'met'],
    row(
      `default retention (${kept.retention.max_validations.toLocaleString('en-US')} validations)`,
      kept,
      `< ${TARGET_MB} MB`,
      kept.peakMb < TARGET_MB ? 'yes' : 'NO',
    ),
  ];
  if (process.env.BENCH_RETENTION_COMPARE !== '0') {
    if (global.gc) global.gc();
    const unbounded = await run('no retention', { retention: { maxValidations: Number.MAX_SAFE_INTEGER } }, COUNT, STOP_UNBOUNDED_MB);
    const perValidation = ((unbounded.peakMb * 1024) / unbounded.created).toFixed(1);
    rows.push(
      row(
        `retention off, for comparison (stops at ${STOP_UNBOUNDED_MB} MB)`,
        unbounded,
        '—',
        `${perValidation} KB per validation kept; default peak ${(kept.peakMb / unbounded.peakMb).toFixed(2)} × this peak`,
      ),
    );
  }
  for (const cells of rows) process.stdout.write(`| ${cells.join(' | ')} |\n`);
}

main().catch((error) => {
  process.stderr.write(`bench:retention: ${error.stack || error}\n`);
  process.exit(1);
});
