#!/usr/bin/env node
'use strict';
// The container's health check: GET /_mock/health on the port bvs-mock listens on, HTTPS or HTTP.
// The port and the scheme come from the flags bvs-mock was started with (PID 1's command line in the
// container, so `CMD ["serve", "--http", "--port", "8080"]` works), else from BVS_MOCK_PORT and
// BVS_MOCK_HTTP; when neither says, HTTPS is tried first and plain HTTP after it.
const { readFileSync } = require('node:fs');

function startFlags() {
  try {
    const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0').filter(Boolean);
    if (!args.includes('serve')) return {};
    const flags = {};
    args.forEach((arg, index) => {
      if (arg === '--http') flags.http = true;
      if (arg === '--port') flags.port = Number(args[index + 1]);
      if (arg.startsWith('--port=')) flags.port = Number(arg.slice('--port='.length));
    });
    return flags;
  } catch {
    return {};
  }
}

const flags = startFlags();
const port = flags.port || Number(process.env.BVS_MOCK_PORT || 4010);
const plainByEnv = /^(1|true|yes|on)$/i.test(process.env.BVS_MOCK_HTTP || '');
const schemes = flags.http || plainByEnv ? ['http'] : ['https', 'http'];

function check(scheme) {
  return new Promise((resolve) => {
    const client = require(scheme === 'http' ? 'node:http' : 'node:https');
    const request = client.get({ host: '127.0.0.1', port, path: '/_mock/health', rejectUnauthorized: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

(async () => {
  for (const scheme of schemes) if (await check(scheme)) process.exit(0);
  process.exit(1);
})();
