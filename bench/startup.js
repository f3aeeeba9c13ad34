#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:startup`: how fast the npm package's `bvs-mock` command starts where users have it. The
 * package is packed (`npm pack`, as for the registry) and installed from the tarball into an empty project;
 * then `bvs-mock serve --port 0` (HTTPS, the default) is spawned and `GET /_mock/health` polled until it
 * answers 200. Beside it, from the same install, the plain dist entry (`dist/cli/main.js`, which the command
 * ran before docs/decisions/0003-msw-once.md) started the same way, the two taken in turns. The first start
 * after the install (no V8 code cache yet) is reported on its own line.
 * Target: the command's median under 250 ms. It reports and exits 0 even when the target is missed; it exits 1
 * only when something could not be measured. Build first (`npm run bench:startup` does).
 *
 * Environment: BENCH_STARTUP_RUNS (default 11) starts of each.
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS || 11);
const TARGET_MS = 250;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bvs-mock-startup-'));
const children = new Set();

process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const since = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))} ms`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a command to its end, quietly; a failure throws with what it printed. */
function run(command, args, cwd) {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`, { cause: error });
  }
}

/** bvs-mock packed and installed into an empty project; the paths of its command and of the dist entry. */
function install() {
  run('npm', ['pack', '--ignore-scripts', '--pack-destination', tmp], ROOT);
  const tarball = path.join(
    tmp,
    fs.readdirSync(tmp).find((file) => file.endsWith('.tgz')),
  );
  const project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'startup-bench', version: '1.0.0', private: true }));
  run('npm', ['install', '--prefer-offline', '--no-save', tarball], project);
  const installed = path.join(project, 'node_modules', 'bvs-mock');
  // What `node_modules/.bin/bvs-mock` links to; spawned with this node, as the dist entry is.
  const command = fs.realpathSync(path.join(project, 'node_modules', '.bin', 'bvs-mock'));
  const distEntry = path.join(tmp, 'dist-entry.js');
  fs.writeFileSync(
    distEntry,
    `require(${JSON.stringify(path.join(installed, 'dist', 'cli', 'main.js'))}).main(process.argv).catch((error) => { process.stderr.write(String(error)); process.exitCode = 1; });\n`,
  );
  return { project, installed, command, distEntry, tarballBytes: fs.statSync(tarball).size };
}

/** Status of one GET over HTTPS (the mock's own certificate), or 0 when nothing answers yet. */
function status(url) {
  return new Promise((resolve) => {
    const request = https.get(url, { rejectUnauthorized: false, agent: false, timeout: 1000 }, (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

/** Milliseconds from spawning `node script serve --port 0` to a 200 from its `GET /_mock/health`; stops it with SIGTERM (which writes a code cache). */
async function timeStart(script, cwd) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BVS_MOCK_')));
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [script, 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  try {
    const deadline = Date.now() + 30_000;
    let url;
    for (;;) {
      url ??= /listening on (https:\/\/\S+)/.exec(output)?.[1];
      if (url !== undefined && (await status(`${url}/_mock/health`)) === 200) return since(started);
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${script} serve was not healthy:\n${output.slice(-2000)}`);
      await sleep(url === undefined ? 2 : 5);
    }
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
    await exited;
    children.delete(child);
  }
}

async function main() {
  const { project, installed, command, distEntry, tarballBytes } = install();
  const cache = path.join(installed, 'bundle', 'bvs-mock.js.cache');
  const bundled = fs.existsSync(path.join(installed, 'bundle', 'bvs-mock.js'));
  fs.rmSync(cache, { force: true });
  const first = await timeStart(command, project);
  const cacheMade = fs.existsSync(cache);
  const commandStarts = [];
  const distStarts = [];
  for (let i = 0; i < RUNS; i += 1) {
    commandStarts.push(await timeStart(command, project));
    distStarts.push(await timeStart(distEntry, project));
  }
  const commandMs = median(commandStarts);
  const distMs = median(distStarts);
  const version = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version;
  const lines = [
    `bvs-mock ${version} installed from its tarball (${(tarballBytes / 1024 / 1024).toFixed(1)} MB), node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
    `spawn of \`serve --port 0\` (HTTPS) to GET /_mock/health 200, median of ${RUNS}, taken in turns:`,
    '',
    '| start | median | range | target |',
    '| --- | --- | --- | --- |',
    `| \`bvs-mock\` command (${bundled ? `one bundled file${cacheMade ? ', V8 code cache' : ', no code cache written'}` : 'no bundle in the package: dist/'}) | ${Math.round(commandMs)} ms | ${range(commandStarts)} | < ${TARGET_MS} ms: ${commandMs < TARGET_MS ? 'met' : 'MISSED'} |`,
    `| plain dist entry (dist/cli/main.js and node_modules) | ${Math.round(distMs)} ms | ${range(distStarts)} | — |`,
    `| command / dist entry | ${(commandMs / distMs).toFixed(2)}x | | |`,
    `| first start after the install (no code cache yet), once | ${Math.round(first)} ms | | |`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

main().catch((error) => {
  process.stderr.write(`bench:startup could not measure: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
