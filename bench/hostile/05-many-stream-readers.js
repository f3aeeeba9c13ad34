'use strict';
/**
 * Hostile probe 5: hundreds of change-stream readers. 600 `GET /_mock/stream` connections once took all
 * 512 connections bvs-mock's server holds: 512 got `ready`, every later connection was reset, and health
 * failed with ECONNRESET for 30 s. Opens READERS streams at once and holds those that were let in for
 * HOLD_MS, calling the API meanwhile, then closes them all and says what each got.
 */
const https = require('node:https');
const tls = require('node:tls');

const READERS = 600;
/** How long the readers let in are held open, while the API is called. */
const HOLD_MS = 10_000;
/** A stream's head must arrive within this, or the reader counts as unanswered. */
const HEAD_TIMEOUT_MS = 20_000;

/** Opens one stream on a connection of its own; resolves with what its head said (and, when refused, the body). */
function openStream(url, secureContext) {
  return new Promise((resolve) => {
    const call = https.request(new URL('/_mock/stream', url), { secureContext, agent: false, timeout: HEAD_TIMEOUT_MS }, (response) => {
      if (response.statusCode === 200) {
        response.once('data', () => resolve({ status: 200, close: () => call.destroy() }));
        response.on('error', () => undefined);
        return;
      }
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          retryAfter: response.headers['retry-after'],
          body: Buffer.concat(chunks).toString('utf8'),
          close: () => call.destroy(),
        }),
      );
      response.on('error', () => resolve({ status: response.statusCode, error: 'aborted', close: () => call.destroy() }));
    });
    call.on('timeout', () => call.destroy(new Error('no head in time')));
    call.on('error', (error) => resolve({ status: null, error: error.code ?? error.message, close: () => call.destroy() }));
    call.end();
  });
}

module.exports = {
  problem: 5,
  title: `${READERS} change-stream readers at once`,
  serveArgs: [],
  async attack({ url, ca, apiKey, request }) {
    const started = Date.now();
    // One context for all: making one per connection (parsing the certificate each time) would keep this process, and the health calls beside it, busy.
    const secureContext = tls.createSecureContext({ ca });
    const readers = await Promise.all(Array.from({ length: READERS }, () => openStream(url, secureContext)));
    const openedMs = Date.now() - started;
    const byStatus = {};
    for (const reader of readers) {
      const key = reader.status === null ? reader.error : String(reader.status);
      byStatus[key] = (byStatus[key] ?? 0) + 1;
    }
    const refused = readers.find((reader) => reader.status === 503);
    const message = refused === undefined ? '' : (JSON.parse(refused.body).error?.message ?? '').slice(0, 90);
    // The API and health while the readers let in are held.
    const calls = [];
    const holdUntil = Date.now() + HOLD_MS;
    while (Date.now() < holdUntil) {
      try {
        const answer = await request('/api/v2/webhook_endpoints', { headers: { authorization: `Bearer ${apiKey}` }, timeoutMs: 5_000 });
        calls.push(`${answer.status}`);
      } catch (error) {
        calls.push(error.code ?? 'failed');
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    for (const reader of readers) reader.close();
    const apiStatuses = {};
    for (const status of calls) apiStatuses[status] = (apiStatuses[status] ?? 0) + 1;
    const health = JSON.parse((await request('/_mock/health')).body.toString('utf8'));
    const rss = health.memory?.rss_bytes === undefined ? '' : `; RSS ${(health.memory.rss_bytes / 1048576).toFixed(0)} MB`;
    return (
      `${READERS} readers opened in ${openedMs} ms: ${JSON.stringify(byStatus)}` +
      (refused === undefined ? '' : ` (503 with Retry-After ${refused.retryAfter}: "${message}...")`) +
      `; API calls while held: ${JSON.stringify(apiStatuses)}${rss}`
    );
  },
};
