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
    process.stderr.write(`bvs-mock: ${error && error.message ? error.message : error}\n`);
    process.exitCode = 1;
  });
