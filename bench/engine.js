#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:engine`: how fast the simulation engine plays trees in instant mode.
 * Targets (issue "Simulation engine"): large-tree (50 partners) to the end in under 200 ms;
 * 1,000 happy-partners validations played together in under 5 s with memory under 300 MB.
 * Runs against the built package (dist/), as users do. Prints figures and ratios to the targets.
 */
const { createClock } = require('../dist/clock');
const { Engine } = require('../dist/engine');
const { ScenarioLibrary, generateScenario } = require('../dist/engine/scenarios');
const { UrlSigner } = require('../dist/reports/url-signer');

const library = ScenarioLibrary.builtIn();

function newEngine() {
  const clock = createClock({ mode: 'instant' });
  const engine = new Engine({ clock, scenarios: library, generate: generateScenario, signer: new UrlSigner('bench', 'https://127.0.0.1:4010') });
  let events = 0;
  engine.subscribe(() => {
    events += 1;
  });
  return { clock, engine, events: () => events };
}

function tinOf(name) {
  const scenario = library.byName(name);
  if (!scenario) throw new Error(`bench: built-in scenario ${name} is missing`);
  return { tin: (scenario.tins && scenario.tins[0]) || scenario.entity.tin, country: scenario.entity.country };
}

async function largeTree() {
  const request = tinOf('large-tree');
  const times = [];
  let events = 0;
  for (let i = 0; i < 7; i += 1) {
    const { clock, engine, events: count } = newEngine();
    const started = process.hrtime.bigint();
    engine.createValidation({ organizationId: 'bench', request });
    await clock.idle();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    events = count();
    clock.dispose();
  }
  times.sort((a, b) => a - b);
  return { median: times[3], best: times[0], events };
}

async function manyValidations(count) {
  const request = tinOf('happy-partners');
  global.gc?.();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 5);
  const { clock, engine, events } = newEngine();
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) engine.createValidation({ organizationId: 'bench', request });
  await clock.idle();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(sampler);
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
  clock.dispose();
  return { ms, events: events(), peakRssMb: peakRss / 2 ** 20, peakHeapMb: peakHeap / 2 ** 20, heapGrowthMb: (peakHeap - baseline.heapUsed) / 2 ** 20 };
}

function row(cells) {
  return `| ${cells.join(' | ')} |`;
}

(async () => {
  await largeTree(); // warm-up: JIT and the library
  const large = await largeTree();
  const many = await manyValidations(1000);
  const lines = [
    `bvs-mock engine benchmark (node ${process.version}, instant clock)`,
    '',
    row(['measure', 'figure', 'target', 'ratio to target (< 1 meets it)']),
    row(['---', '---', '---', '---']),
    row([
      'large-tree (50 partners) to the end, median of 7',
      `${large.median.toFixed(1)} ms (best ${large.best.toFixed(1)} ms, ${large.events} events)`,
      '200 ms',
      (large.median / 200).toFixed(3),
    ]),
    row([
      '1,000 happy-partners together',
      `${many.ms.toFixed(0)} ms (${many.events} events, ${Math.round(many.events / (many.ms / 1000))} events/s)`,
      '5000 ms',
      (many.ms / 5000).toFixed(3),
    ]),
    row([
      'peak RSS during the 1,000',
      `${many.peakRssMb.toFixed(0)} MB (heap peak ${many.peakHeapMb.toFixed(0)} MB, growth ${many.heapGrowthMb.toFixed(0)} MB)`,
      '300 MB',
      (many.peakRssMb / 300).toFixed(3),
    ]),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
})().catch((error) => {
  process.stderr.write(`bench: ${error.stack || error}\n`);
  process.exitCode = 1;
});
