import { DataSourceRunBatch } from '../../src/schemas';
import { DEFAULT_API_KEY, useTestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { pageTexts } from './pdf-text';

// A consolidated report is what the tree was when it was generated, and each generation has its own URL (docs/fidelity.md row 122). An on-demand report generated at 0:50 and downloaded at 1:10 said
// "Generated at 10:00:50" but held a run that succeeded at 10:01:05 and an alert raised at 0:55, and the same
// pre-signed URL later served the automatic 1:30 report.

const t = useTestServer();

async function batch(id: string): Promise<DataSourceRunBatch> {
  return DataSourceRunBatch.parse((await t.get(`/api/v2/data_source_run_batches/${id}`)).json());
}

async function reportText(url: string): Promise<string> {
  const answer = await t.call(url);
  expect(answer.status).toBe(200);
  return (await pageTexts(answer.body)).join('\n');
}

test('an on-demand report keeps the tree of its instant, and the automatic report that follows has a URL of its own', async () => {
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  const mainId = created.data_source_run_batches[0]!.id;
  await t.advance(20);
  const asked = await t.call(`/api/v2/data_source_run_batches/${mainId}/consolidated_report`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEFAULT_API_KEY}` },
  });
  expect(asked.status).toBe(202);
  const early = (await batch(mainId)).consolidated_report_url!;
  const earlyText = await reportText(early);
  // Played to the end: runs succeed and the automatic report comes.
  await t.runClock();
  const late = (await batch(mainId)).consolidated_report_url!;
  expect(new URL(late).pathname).not.toBe(new URL(early).pathname);
  const lateText = await reportText(late);
  // The early URL still serves the early report, byte for byte what it said before the tree went on.
  expect(await reportText(early)).toBe(earlyText);
  expect(lateText).not.toBe(earlyText);
  // Nothing in the early report happened after it was generated: every instant it prints is at most its own.
  const generated = /Generated at\n(\S+ \S+)/.exec(earlyText)?.[1];
  expect(generated).toBeDefined();
  const instants = [...earlyText.matchAll(/\b(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\b/g)].map((match) => match[1]!);
  expect(instants.length).toBeGreaterThan(0);
  expect(instants.filter((instant) => instant > generated!.slice(0, 19))).toEqual([]);
});
