#!/usr/bin/env node
// Waits until bvs-mock answers, then writes the certificate it serves (GET /_mock/certificate) to a file, so the
// client trusts it (NODE_EXTRA_CA_CERTS=FILE, curl --cacert FILE, REQUESTS_CA_BUNDLE=FILE) instead of turning
// verification off. Node's built-ins only; copy it into your repository (the recipes here use ci/).
//
//   node ci/fetch-certificate.js https://bvs:4010 bvs.pem [seconds to wait, default 60]
const { get } = require('node:https');
const { writeFileSync } = require('node:fs');

const [url, file, seconds = '60'] = process.argv.slice(2);
if (url === undefined || file === undefined) {
  console.error('usage: node fetch-certificate.js BVS_MOCK_URL FILE [SECONDS]');
  process.exit(2);
}
const deadline = Date.now() + Number(seconds) * 1000;

function retry(reason) {
  if (Date.now() > deadline) {
    console.error(`fetch-certificate: ${url} did not serve its certificate within ${seconds} s (last: ${reason}); is bvs-mock running, and is the URL right?`);
    process.exit(1);
  }
  setTimeout(attempt, 1000);
}

function attempt() {
  // The one request that is not verified: it fetches what every later request verifies with.
  get(new URL('/_mock/certificate', url), { rejectUnauthorized: false }, (answer) => {
    let pem = '';
    answer.on('data', (chunk) => (pem += chunk));
    answer.on('end', () => {
      if (answer.statusCode !== 200 || !pem.includes('BEGIN CERTIFICATE')) return retry(`HTTP ${answer.statusCode}`);
      writeFileSync(file, pem);
      console.log(`fetch-certificate: wrote ${url}'s certificate to ${file}`);
    });
  }).on('error', (error) => retry(error.code ?? error.message));
}

attempt();
