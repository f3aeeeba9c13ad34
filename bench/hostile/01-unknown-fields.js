'use strict';
/**
 * Hostile probe 1: creates carrying tens of thousands of unknown fields. Stripping them once copied the
 * whole body per unknown key, so one create with 60,000 of them (650 KB) kept the event loop busy for
 * over ten minutes, and each journal entry kept every violation (60 such entries made a 9.3 MB
 * `/_mock/requests` page). Sends ROUNDS such creates one after the other with the default API key,
 * then reads the journal page and the contract report, and sums up what came back.
 */
const UNKNOWN_KEYS = 60_000;
const ROUNDS = 20;
/** Stops sending once this much real time has passed, whatever is left of ROUNDS. */
const BUDGET_MS = 45_000;

/** A create body with `count` unknown top-level fields (`"k0":1,` ... about 650 KB for 60,000). */
function manyUnknownFields(count) {
  const body = { tin: '76920415-6', country: 'CL' };
  for (let index = 0; index < count; index += 1) body[`k${index}`] = 1;
  return JSON.stringify(body);
}

const kilobytes = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;

module.exports = {
  problem: 1,
  title: 'creates with 60,000 unknown fields each',
  serveArgs: [],
  async attack({ apiKey, request }) {
    const body = manyUnknownFields(UNKNOWN_KEYS);
    const statuses = {};
    let slowest = 0;
    let sent = 0;
    const started = Date.now();
    while (sent < ROUNDS && Date.now() - started < BUDGET_MS) {
      const answer = await request('/api/v2/entity_validations', {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body,
      });
      sent += 1;
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      slowest = Math.max(slowest, answer.ms);
    }
    const page = await request('/_mock/requests?violations=true&limit=100');
    const entries = JSON.parse(page.body.toString('utf8')).requests;
    const kept = entries[0]?.violations.length ?? 0;
    const omitted = entries[0]?.violations_omitted ?? 0;
    const report = await request('/_mock/report');
    const counted = JSON.parse(report.body.toString('utf8')).violations.issues;
    const health = JSON.parse((await request('/_mock/health')).body.toString('utf8'));
    const rss = health.memory?.rss_bytes === undefined ? '' : `; RSS ${(health.memory.rss_bytes / 1048576).toFixed(0)} MB`;
    return (
      `${sent} creates of ${UNKNOWN_KEYS} unknown fields (${kilobytes(Buffer.byteLength(body))} each): statuses ${JSON.stringify(statuses)}, slowest ${slowest} ms; ` +
      `journal page of ${entries.length} entries ${kilobytes(page.body.length)} (first keeps ${kept} violations, ${omitted} omitted); ` +
      `report ${kilobytes(report.body.length)} counting ${counted} violations${rss}`
    );
  },
};
