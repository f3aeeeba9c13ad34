#!/usr/bin/env node
'use strict';
// The built command line; `npm install` builds dist/ through the prepare script.
process.stdout.on('error', (error) => {
  // A closed pipe (`bvs-mock openapi | head`) is the reader's choice, not a failure.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
require('../dist/cli/main.js')
  .main(process.argv)
  .catch((error) => {
    const message = error && error.message ? error.message : String(error);
    process.stderr.write(`${message.startsWith('bvs-mock:') ? message : `bvs-mock: ${message}`}\n`);
    process.exitCode = 1;
  });
