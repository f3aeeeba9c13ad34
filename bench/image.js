#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:image`: the container image as client CI runs it, built with podman from the unchanged
 * Dockerfile, next to a bare node:http server started the same way on the same base, in one run:
 * bvs-mock's own layers (target at most 25 MB), `podman run` to `/_mock/health` 200 over HTTPS, and
 * `podman stop` (SIGTERM) to exit 0 (target under 1 s). The process alone, from spawn to healthy in the
 * image's file layout (target under 250 ms), is `npm run bench:api`'s figure.
 *
 * Uses the podman set-up of the tests (test/support/podman.ts: the containers.conf that works here,
 * `--runtime runc`, and, since no registry is reachable, a local stand-in for node:20-bookworm-slim, said
 * in the output). Exits 1 when podman cannot run or something could not be measured; never on a missed target.
 *
 * Environment: BENCH_IMAGE_RUNS (default 5) runs of each container.
 */
const fs = require('node:fs');
const https = require('node:https');
const http = require('node:http');
const path = require('node:path');
const { transformSync } = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
const RUNS = Number(process.env.BENCH_IMAGE_RUNS || 5);
const LAYER_TARGET_MB = 25;
const STOP_TARGET_MS = 1000;
const IMAGE = `localhost/bvs-mock-bench:${process.pid}`;

/** A module of test/support, compiled on the fly: one podman set-up (and one free port) for tests and benchmarks. */
function loadTestSupport(name) {
  const file = path.join(ROOT, 'test', 'support', `${name}.ts`);
  const { code } = transformSync(fs.readFileSync(file, 'utf8'), { loader: 'ts', format: 'cjs', sourcefile: file });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', '__dirname', '__filename', code)(module, module.exports, require, path.dirname(file), file);
  return module.exports;
}

const support = loadTestSupport('podman');
const { freePort } = require('./free-port');
const containers = new Set();

function cleanUp() {
  for (const name of containers) {
    try {
      support.podman(['rm', '-f', name]);
    } catch {
      // Already gone.
    }
  }
  try {
    support.podman(['rmi', '-f', IMAGE]);
  } catch {
    // Never built.
  }
  support.removePodmanScratch();
}
process.once('SIGINT', () => {
  cleanUp();
  process.exit(130);
});

const since = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;

/** Status of one GET, or 0 when nothing answers yet. */
function status(url) {
  const get = url.startsWith('https:') ? https.get : http.get;
  return new Promise((resolve) => {
    const request = get(url, { rejectUnauthorized: false, timeout: 1000 }, (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

/** Milliseconds from `podman run -d` to a 200 at `url`, then from `podman stop` to the container's exit, and its exit code. */
async function timeContainer(name, runArgs, url) {
  const port = await freePort();
  const started = process.hrtime.bigint();
  containers.add(name);
  support.podman(['run', '-d', '--name', name, '-p', `127.0.0.1:${port}:4010`, ...runArgs]);
  const deadline = Date.now() + 60_000;
  while ((await status(url(port))) !== 200) {
    if (Date.now() > deadline) throw new Error(`${name} never answered ${url(port)}:\n${support.podman(['logs', name])}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const healthy = since(started);
  const stopping = process.hrtime.bigint();
  support.podman(['stop', '-t', '10', name]);
  const stopped = since(stopping);
  const exitCode = Number(support.podman(['inspect', '--format', '{{.State.ExitCode}}', name]).trim());
  support.podman(['rm', '-f', name]);
  containers.delete(name);
  return { healthy, stopped, exitCode };
}

async function main() {
  const unavailable = support.podmanUnavailable();
  if (unavailable !== null) throw new Error(`podman cannot run here: ${unavailable}`);
  support.ensureBaseImage((line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`building ${IMAGE} from the Dockerfile on ${support.BASE_IMAGE} (a local stand-in, not the official image)\n`);
  const building = process.hrtime.bigint();
  support.podman(['build', '--pull=never', '--network=host', '--format', 'docker', '-t', IMAGE, ROOT], { timeoutMs: 900_000 });
  const buildMs = since(building);
  const size = (image) => Number(support.podman(['image', 'inspect', '--format', '{{.Size}}', image]).trim());
  const layersMb = (size(IMAGE) - size(support.BASE_IMAGE)) / (1024 * 1024);

  const bvs = [];
  const bare = [];
  const bareServer = "require('node:http').createServer((q, s) => s.end('ok')).listen(4010, '0.0.0.0')";
  for (let i = 0; i < RUNS; i += 1) {
    bvs.push(await timeContainer(`bvs-mock-bench-${process.pid}-${i}`, [IMAGE], (port) => `https://127.0.0.1:${port}/_mock/health`));
    bare.push(
      await timeContainer(
        `bvs-mock-bench-bare-${process.pid}-${i}`,
        ['--entrypoint', 'node', support.BASE_IMAGE, '-e', bareServer],
        (port) => `http://127.0.0.1:${port}/`,
      ),
    );
  }
  const healthy = bvs.map((run) => run.healthy);
  const bareHealthy = bare.map((run) => run.healthy);
  const stops = bvs.map((run) => run.stopped);
  const exits = [...new Set(bvs.map((run) => run.exitCode))];
  const mark = (ok) => (ok ? 'pass' : 'FAIL');
  const rows = [
    ['measure', 'figure', 'comparison', 'target', 'result'],
    ['---', '---', '---', '---', '---'],
    ['image build (podman build, this machine)', `${Math.round(buildMs / 1000)} s`, '—', '—', '—'],
    ["bvs-mock's own layers (image size less the base's)", `${layersMb.toFixed(1)} MB`, '—', `≤ ${LAYER_TARGET_MB} MB`, mark(layersMb <= LAYER_TARGET_MB)],
    [
      `podman run to /_mock/health 200 over HTTPS, median of ${RUNS}`,
      `${Math.round(median(healthy))} ms (${range(healthy)})`,
      `${(median(healthy) / median(bareHealthy)).toFixed(2)} × a bare node:http container (${Math.round(median(bareHealthy))} ms)`,
      '—',
      '—',
    ],
    [
      `podman stop (SIGTERM) to exit, median of ${RUNS}`,
      `${Math.round(median(stops))} ms (${range(stops)}), exit code ${exits.join(', ')}`,
      '—',
      `< ${STOP_TARGET_MS} ms, exit 0`,
      mark(median(stops) < STOP_TARGET_MS && exits.length === 1 && exits[0] === 0),
    ],
  ];
  process.stdout.write(`\n${rows.map((cells) => `| ${cells.join(' | ')} |`).join('\n')}\n`);
  process.stdout.write('\nThe process alone, spawn to healthy in the image layout (target < 250 ms): npm run bench:api.\n');
}

main()
  .catch((error) => {
    process.stderr.write(`bench:image: ${error.message}\n`);
    process.exitCode = 1;
  })
  .finally(cleanUp);
