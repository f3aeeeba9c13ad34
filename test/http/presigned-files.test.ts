import { PDFDocument } from 'pdf-lib';
import { DataSourceRunBatch, EntityValidation, Formation } from '../../src/schemas';
import type { HttpAnswer } from '../support/https-client';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { CL_FORMATION, HAPPY_PARTNERS } from '../support/built-in-tins';

// PDFs behind pre-signed URLs: they work for 24 simulated hours, then answer 410 url_expired, and
// the re-fetch operation the 410 names gives a fresh URL (spec §6 rule 2, §8; docs/fidelity.md rows 18, 77).

const DAY = 24 * 60 * 60;

const t = useTestServer();

async function expectPdf(answer: HttpAnswer): Promise<PDFDocument> {
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/pdf');
  expect(answer.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const document = await PDFDocument.load(answer.body);
  expect(document.getPageCount()).toBeGreaterThan(0);
  return document;
}

async function playedValidation(tin: string): Promise<EntityValidation> {
  const created = await t.create({ tin, country: 'CL' });
  await t.runClock();
  return EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
}

async function formationOf(id: string): Promise<Formation> {
  return Formation.parse((await t.get(`/api/v2/entity_validations/${id}/formation`)).json());
}

test('the consolidated_report_url of a played happy-partners validation downloads a real PDF', async () => {
  const validation = await playedValidation(HAPPY_PARTNERS);
  const url = validation.data_source_run_batches[0]!.consolidated_report_url!;
  expect(url).toMatch(new RegExp(`^${t.server.url}/_mock/files/default/reports/dsrb_\\w+\\.pdf\\?expires=\\d+&signature=[0-9a-f]+$`));
  await expectPdf(await t.call(url));
});

test('the legal_report_url and every document url of a cl-formation validation download real PDFs', async () => {
  const validation = await playedValidation(CL_FORMATION);
  const formation = await formationOf(validation.id);
  await expectPdf(await t.call(formation.legal_report_url));
  expect(formation.documents.length).toBeGreaterThan(0);
  for (const document of formation.documents) await expectPdf(await t.call(document.url));
});

test('a report URL works until the last second of its 24 hours and answers 410 url_expired from then on', async () => {
  const validation = await playedValidation(HAPPY_PARTNERS);
  const url = validation.data_source_run_batches[0]!.consolidated_report_url!;
  await t.advance(DAY - 1);
  expect((await t.call(url)).status).toBe(200);
  await t.advance(1);
  const error = expectApiError(await t.call(url), 410, 'url_expired');
  expect(error.message).toMatch(/expired at /);
});

/** Does what a 410 message says: the one `GET /api/v2/…` it names, and the fresh URL of the same file in that answer. */
async function followExpiredMessage(message: string, pick: (answer: unknown) => string): Promise<string> {
  const named = /GET (\/api\/v2\/\S+?)[ .,;]/.exec(message);
  expect(named).not.toBeNull();
  const answer = await t.get(named![1]!);
  expect(answer.status).toBe(200);
  return pick(answer.json());
}

test('an expired URL\'s 410 names the read that gives a fresh URL, and that read does (it said "Read the resource again", which gave the same expired URL)', async () => {
  const validation = await playedValidation(HAPPY_PARTNERS);
  const report = validation.data_source_run_batches[0]!.consolidated_report_url!;
  const formed = await playedValidation(CL_FORMATION);
  const formation = await formationOf(formed.id);
  await t.advance(DAY);
  const reportError = expectApiError(await t.call(report), 410, 'url_expired');
  const freshReport = await followExpiredMessage(
    reportError.message,
    (answer) => EntityValidation.parse(answer).data_source_run_batches[0]!.consolidated_report_url!,
  );
  await expectPdf(await t.call(freshReport));
  const legalError = expectApiError(await t.call(formation.legal_report_url), 410, 'url_expired');
  await expectPdf(await t.call(await followExpiredMessage(legalError.message, (answer) => Formation.parse(answer).legal_report_url)));
  const documentError = expectApiError(await t.call(formation.documents[0]!.url), 410, 'url_expired');
  await expectPdf(await t.call(await followExpiredMessage(documentError.message, (answer) => Formation.parse(answer).documents[0]!.url)));
});

test('GET entity_validations/:id answers the report URL as issued for 24 hours, then one valid 24 hours from the read, even right after a cached read', async () => {
  const validation = await playedValidation(HAPPY_PARTNERS);
  const issued = validation.data_source_run_batches[0]!.consolidated_report_url!;
  const read = async () =>
    EntityValidation.parse((await t.get(`/api/v2/entity_validations/${validation.id}`)).json()).data_source_run_batches[0]!.consolidated_report_url!;
  await t.advance(DAY - 1);
  expect(await read()).toBe(issued);
  await t.advance(1);
  const fresh = await read();
  expect(fresh).not.toBe(issued);
  const now = Date.parse((await t.get('/_mock/clock')).json<{ now: string }>().now);
  expect(Number(new URL(fresh).searchParams.get('expires')) * 1000).toBe(now + DAY * 1000);
  expect(await read()).toBe(fresh);
  await expectPdf(await t.call(fresh));
  expect(t.events.find((event) => event.type === 'data_source_run_batch.consolidated_report_ready')?.body).toMatchObject({
    data_source_run_batch: { consolidated_report_url: issued },
  });
});

test('after 24 hours GET data_source_run_batches/:id gives a fresh report URL that works again', async () => {
  const validation = await playedValidation(HAPPY_PARTNERS);
  const main = validation.data_source_run_batches[0]!;
  await t.advance(DAY);
  expectApiError(await t.call(main.consolidated_report_url!), 410, 'url_expired');
  const fresh = DataSourceRunBatch.parse((await t.get(`/api/v2/data_source_run_batches/${main.id}`)).json()).consolidated_report_url!;
  expect(fresh).not.toBe(main.consolidated_report_url);
  await expectPdf(await t.call(fresh));
});

test('after 24 hours the formation extension gives fresh legal report and document URLs that work again', async () => {
  const validation = await playedValidation(CL_FORMATION);
  const before = await formationOf(validation.id);
  await t.advance(DAY);
  expectApiError(await t.call(before.legal_report_url), 410, 'url_expired');
  expectApiError(await t.call(before.documents[0]!.url), 410, 'url_expired');
  const after = await formationOf(validation.id);
  await expectPdf(await t.call(after.legal_report_url));
  await expectPdf(await t.call(after.documents[0]!.url));
});

test.each([
  [
    'a changed signature',
    (url: URL) =>
      url.searchParams.set('signature', `${url.searchParams.get('signature')!.slice(0, -1)}${url.searchParams.get('signature')!.endsWith('0') ? '1' : '0'}`),
  ],
  ['no signature', (url: URL) => url.searchParams.delete('signature')],
  ['a later expiry', (url: URL) => url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + DAY))],
  ['another file under the same signature', (url: URL) => (url.pathname = url.pathname.replace(/dsrb_\w+/, 'dsrb_01AAAAAAAAAAAAAAAAAAAAAAAA'))],
])('a report URL with %s answers 404 not_found in the error shape', async (_label, tamper) => {
  const validation = await playedValidation(HAPPY_PARTNERS);
  const url = new URL(validation.data_source_run_batches[0]!.consolidated_report_url!);
  tamper(url);
  const error = expectApiError(await t.call(url.toString()), 404, 'not_found');
  expect(error.message).toMatch(/pre-signed URL/);
});

test('pre-signed files need no Authorization header (the URL is the credential)', async () => {
  const validation = await playedValidation(HAPPY_PARTNERS);
  const answer = await t.call(validation.data_source_run_batches[0]!.consolidated_report_url!, { headers: {} });
  expect(answer.status).toBe(200);
});
