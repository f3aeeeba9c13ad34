#!/usr/bin/env node
'use strict';
/**
 * The floor contender of `bench/api.js`: a bare `node:http` server that answers every request
 * (any method, any path) with status 200, `content-type: application/json; charset=utf-8` and
 * exactly the bytes of the JSON file given as the first argument, read once into a Buffer.
 * No routing, no serialization, no framework: what the transport alone costs on this machine,
 * the ceiling no server written in Node can pass on the same loopback load.
 *
 * Usage: node bench/bare-node-baseline.js body.json   (prints `listening on http://127.0.0.1:PORT`)
 */
const { readFileSync } = require('node:fs');
const http = require('node:http');

const file = process.argv[2];
if (!file) {
  process.stderr.write('bare-node-baseline: give the JSON body file as the first argument\n');
  process.exit(2);
}
const body = readFileSync(file);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = http.createServer((request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});

server.once('error', (error) => {
  process.stderr.write(`bare-node-baseline: cannot listen: ${error.message}\n`);
  process.exit(1);
});
server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  process.stdout.write(`bare node:http baseline listening on http://127.0.0.1:${server.address().port}\n`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}
