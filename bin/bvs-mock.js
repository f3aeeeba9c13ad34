#!/usr/bin/env node
'use strict';
// The command line, from the one-file bundle (scripts/bundle-server.js, written by `npm run build`) as the npm
// package and the container image ship it, compiled from V8's code cache beside it when there is one (the first
// run writes it, the image makes it at build), which saves most of a start's compile time
// (docs/decisions/0003-msw-once.md). dist/ runs instead where there is no bundle, and in a checkout (src/ beside
// bin/) where dist/ was compiled after the bundle (by `tsc` alone): a stale bundle never runs.
const { readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

process.stdout.on('error', (error) => {
  // A closed pipe (`bvs-mock openapi | head`) is the reader's choice, not a failure.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

function loadBundle(file) {
  const cacheFile = `${file}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet: compiled from source, and the cache written below when the folder is writable.
  }
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written at exit, so it holds the functions this run compiled too (the image runs `scenarios` once to make it).
    process.once('exit', () => {
      // Written aside and renamed, so a command starting meanwhile reads the whole of one cache or none.
      const partial = `${cacheFile}.${process.pid}`;
      try {
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        // A read-only folder (the image's, a global install's): the next start compiles again.
        rmSync(partial, { force: true });
      }
    });
  }
  return module.exports;
}

/** Whether the bundle is what to run: it exists, and it is no older than dist/ in a checkout (an install's times are those of unpacking). */
function bundleIsCurrent(root, bundle, built) {
  const bundled = statSync(bundle, { throwIfNoEntry: false });
  if (bundled === undefined) return false;
  if (statSync(join(root, 'src'), { throwIfNoEntry: false }) === undefined) return true;
  const compiled = statSync(built, { throwIfNoEntry: false });
  return compiled === undefined || compiled.mtimeMs <= bundled.mtimeMs;
}

const root = join(__dirname, '..');
const bundle = join(root, 'bundle', 'bvs-mock.js');
const built = join(root, 'dist', 'cli', 'main.js');
const cli = bundleIsCurrent(root, bundle, built) ? loadBundle(bundle) : require(built);
cli.main(process.argv).catch((error) => {
  const message = error && error.message ? error.message : String(error);
  process.stderr.write(`${message.startsWith('bvs-mock:') ? message : `bvs-mock: ${message}`}\n`);
  process.exitCode = 1;
});
