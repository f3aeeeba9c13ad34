'use strict';
/**
 * Problem 4 of the hostile probe: continued creation with one endpoint that never answers, under
 * `--max-delivery-records 1000 --max-validations 500`. Before the fix the pending records grew without
 * end (196,291 records, 638 MB) and creations fell from about 5,000 to 12 a second, as retention scanned
 * every record on each event. Now a receiver may have at most 10,000 pending (the excess fails with
 * `reason: receiver_backlog`), one that keeps timing out is suspended, and retention forgets ended
 * records from a queue. Bounded: at most 45 s of creation, 8 in flight at once.
 */
const { hangingReceiver } = require('../hanging-receiver');

const CREATE_SECONDS = 45;
const IN_FLIGHT = 8;

module.exports = {
  problem: 4,
  title: 'pending deliveries behind one hung receiver',
  serveArgs: ['--max-delivery-records', '1000', '--max-validations', '500'],
  async attack({ apiKey, request }) {
    const receiver = await hangingReceiver();
    const post = (path, body, headers = {}) =>
      request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const health = async () => JSON.parse((await request('/_mock/health')).body.toString('utf8'));
    try {
      const endpoint = await post('/_mock/webhook_endpoints', { name: 'hung', url: receiver.url, auth_type: 'none' });
      const statuses = {};
      const perSecond = [];
      let created = 0;
      let peakPending = 0;
      let peakRecords = 0;
      let slowestHealthMs = 0;
      const started = Date.now();
      const until = started + CREATE_SECONDS * 1000;
      let second = 0;
      let inSecond = 0;
      const worker = async () => {
        while (Date.now() < until) {
          const answer = await post('/api/v2/entity_validations', { tin: '76920415-6', country: 'CL' }, { authorization: `Bearer ${apiKey}` });
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.status === 201) created += 1;
          const now = Math.floor((Date.now() - started) / 1000);
          if (now !== second) {
            perSecond.push(inSecond);
            second = now;
            inSecond = 0;
          }
          inSecond += 1;
        }
      };
      const sampler = (async () => {
        while (Date.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          const before = Date.now();
          const read = await health();
          slowestHealthMs = Math.max(slowestHealthMs, Date.now() - before);
          peakPending = Math.max(peakPending, read.deliveries.counts.pending);
          peakRecords = Math.max(peakRecords, read.deliveries.records);
        }
      })();
      await Promise.all([...Array.from({ length: IN_FLIGHT }, worker), sampler]);
      const end = await health();
      const rss = end.process?.rss_bytes ?? end.process?.rss;
      const first = perSecond.slice(1, 6);
      const last = perSecond.slice(-5);
      const mean = (values) => (values.length === 0 ? 0 : Math.round(values.reduce((sum, value) => sum + value, 0) / values.length));
      await post('/_mock/reset', {});
      return (
        `endpoint ${endpoint.status}; ${created} created in ${CREATE_SECONDS} s (statuses ${JSON.stringify(statuses)}), ` +
        `${mean(first)}/s in seconds 1-5, ${mean(last)}/s in the last 5; pending peak ${peakPending} (cap ${end.deliveries.max_pending_per_receiver}), ` +
        `records peak ${peakRecords} (max ${end.deliveries.max_records}); at the end ${JSON.stringify(end.deliveries.counts)}, ` +
        `suspended receivers ${end.deliveries.suspended_receivers}, receiver saw ${receiver.connections()} connections; slowest sampled health ${slowestHealthMs} ms` +
        (rss === undefined ? '' : `; RSS ${Math.round(rss / 1024 / 1024)} MB`)
      );
    } finally {
      await receiver.close();
    }
  },
};
