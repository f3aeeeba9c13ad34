#!/usr/bin/env node
'use strict';
// The built command line: dist/ (`npm install` builds it through the prepare script), or, in the container
// image, which ships no dist/, the one-file bundle (scripts/bundle-server.js), compiled from V8's code cache
// beside it when there is one (the image makes it at build), which saves most of a start's compile time.
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
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
      try {
        writeFileSync(cacheFile, script.createCachedData());
      } catch {
        // A read-only image folder: the next start compiles again.
      }
    });
  }
  return module.exports;
}

const built = join(__dirname, '..', 'dist', 'cli', 'main.js');
const cli = existsSync(built) ? require(built) : loadBundle(join(__dirname, '..', 'bundle', 'bvs-mock.js'));
cli.main(process.argv).catch((error) => {
  const message = error && error.message ? error.message : String(error);
  process.stderr.write(`${message.startsWith('bvs-mock:') ? message : `bvs-mock: ${message}`}\n`);
  process.exitCode = 1;
});
