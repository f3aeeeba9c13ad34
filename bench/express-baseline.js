#!/usr/bin/env node
'use strict';
/**
 * The reference contender of `bench/api.js`: a plain express 5 app answering one
 * entity validation, read once from the JSON file given as the first argument, on a
 * route of the same shape as bvs-mock's. `res.json` serializes on every request, as
 * bvs-mock does, so the comparison is transport plus routing plus serialization.
 * Express defaults are kept (ETag, x-powered-by): this is "a plain express app".
 *
 * Usage: node bench/express-baseline.js body.json   (prints `listening on http://127.0.0.1:PORT`)
 */
const { readFileSync } = require('node:fs');
const express = require('express');

const file = process.argv[2];
if (!file) {
  process.stderr.write('express-baseline: give the JSON body file as the first argument\n');
  process.exit(2);
}
const body = JSON.parse(readFileSync(file, 'utf8'));

const app = express();
app.get('/api/v2/entity_validations/:id', (request, response) => {
  response.json(body);
});

const server = app.listen(Number(process.env.PORT || 0), '127.0.0.1', (error) => {
  if (error) {
    process.stderr.write(`express-baseline: cannot listen: ${error.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`express baseline listening on http://127.0.0.1:${server.address().port}\n`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}
