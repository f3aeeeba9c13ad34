#!/usr/bin/env node
'use strict';
// The container's health check: GET /_mock/health on the port bvs-mock listens on, HTTPS or HTTP.
const port = Number(process.env.BVS_MOCK_PORT || 4010);
const plain = /^(1|true|yes|on)$/i.test(process.env.BVS_MOCK_HTTP || '');
const client = require(plain ? 'node:http' : 'node:https');
const request = client.get({ host: '127.0.0.1', port, path: '/_mock/health', rejectUnauthorized: false, timeout: 2000 }, (response) => {
  response.resume();
  process.exit(response.statusCode === 200 ? 0 : 1);
});
request.on('timeout', () => request.destroy());
request.on('error', () => process.exit(1));
