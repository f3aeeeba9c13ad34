'use strict';
/**
 * Problem 3 of the hostile probe: `POST /_mock/clock/run` while the only receiver hangs (it accepts
 * the connection, reads the request and never answers). Before the fix the run waited every attempt's
 * 10 s timeout, 21 attempts a delivery, one delivery after another: about 21 minutes. Now it answers
 * at its bound (30 s by default, `max_wait_seconds` per call) with `settled: false` and what is left.
 * Bounded: one validation, two runs (the default bound, then 2 s), about 35 s in all.
 */
const { hangingReceiver } = require('../hanging-receiver');

module.exports = {
  problem: 3,
  title: 'clock/run while the only receiver hangs',
  serveArgs: [],
  async attack({ apiKey, request }) {
    const receiver = await hangingReceiver();
    try {
      const send = (path, method, body, headers = {}) =>
        request(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), timeoutMs: 60_000 });
      const endpoint = await send('/_mock/webhook_endpoints', 'POST', { name: 'hung', url: receiver.url, auth_type: 'none' });
      const created = await send('/api/v2/entity_validations', 'POST', { tin: '76920415-6', country: 'CL' }, { authorization: `Bearer ${apiKey}` });
      const runs = [];
      for (const body of [{}, { max_wait_seconds: 2 }]) {
        const answer = await send('/_mock/clock/run', 'POST', body);
        let parsed = {};
        try {
          parsed = JSON.parse(answer.body.toString('utf8'));
        } catch {
          // Not JSON: the status says enough.
        }
        const pending = parsed.deliveries === undefined ? '?' : parsed.deliveries.pending;
        runs.push(
          `run ${JSON.stringify(body)}: ${answer.status} in ${Math.round(answer.ms)} ms, settled ${parsed.settled}, ` +
            `pending deliveries ${pending}, in flight ${parsed.in_flight}, timers ${parsed.pending}`,
        );
      }
      const health = JSON.parse((await request('/_mock/health')).body.toString('utf8'));
      const rss = health.process?.rss_bytes ?? health.process?.rss;
      // Ends what is still in flight, so the next probe starts clean.
      await send('/_mock/reset', 'POST', {});
      return (
        `endpoint ${endpoint.status}, create ${created.status}; ${runs.join('; ')}; receiver saw ${receiver.connections()} connections; ` +
        `suspended receivers ${health.deliveries.suspended_receivers}` +
        (rss === undefined ? '' : `; RSS ${Math.round(rss / 1024 / 1024)} MB`)
      );
    } finally {
      await receiver.close();
    }
  },
};
