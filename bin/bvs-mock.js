#!/usr/bin/env node
'use strict';
// The built command line: dist/ (`npm install` builds it through the prepare script), or, in the container
// image, which ships no dist/, the one-file bundle (scripts/bundle-server.js).
process.stdout.on('error', (error) => {
  // A closed pipe (`bvs-mock openapi | head`) is the reader's choice, not a failure.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const built = join(__dirname, '..', 'dist', 'cli', 'main.js');
require(existsSync(built) ? built : join(__dirname, '..', 'bundle', 'bvs-mock.js'))
  .main(process.argv)
  .catch((error) => {
    const message = error && error.message ? error.message : String(error);
    process.stderr.write(`${message.startsWith('bvs-mock:') ? message : `bvs-mock: ${message}`}\n`);
    process.exitCode = 1;
  });
