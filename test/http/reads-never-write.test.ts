import { mockParts } from '../../src/mock/create-mock';
import { DataSourceRunBatch, EntityValidation, Formation, InformationRequest } from '../../src/schemas';
import { useTestServer } from '../support/api-test-server';
import { CL_FORMATION } from '../support/built-in-tins';

// Reads never write (docs/fidelity.md row 77). A GET of a batch 25 simulated hours after its report used to
// re-sign and store the report URL: a later GET of the validation showed the new URL while the information
// request kept the expired one, and two reads of the same instant disagreed.

const t = useTestServer();

const HOURS_25 = 25 * 3600;

async function settledWithReport() {
  const created = await t.create({ tin: CL_FORMATION, country: 'CL', information_request: { template_id: 'irt_reads' } });
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
  const batch = validation.data_source_run_batches[0]!;
  expect(batch.consolidated_report_url).not.toBeNull();
  return { validation, batch, requestId: validation.information_requests[0]!.id };
}

const readValidation = async (id: string) => EntityValidation.parse((await t.get(`/api/v2/entity_validations/${id}`)).json());
const readRequest = async (id: string) => InformationRequest.parse((await t.get(`/api/v2/information_requests/${id}`)).json());
const expiresOf = (url: string | null | undefined) => Number(new URL(url!).searchParams.get('expires'));

test('reading a batch 25 hours later does not change what the validation or the information request shows, and changes no state', async () => {
  const { validation, batch, requestId } = await settledWithReport();
  const issued = batch.consolidated_report_url!;
  expect((await readRequest(requestId)).consolidated_report_url).toBe(issued);
  await t.advance(HOURS_25);

  const version = mockParts(t.server).world.engine.stateVersion;
  const refetched = DataSourceRunBatch.parse((await t.get(`/api/v2/data_source_run_batches/${batch.id}`)).json());
  const formation = Formation.parse((await t.get(`/api/v2/entity_validations/${validation.id}/formation`)).json());
  expect(mockParts(t.server).world.engine.stateVersion).toBe(version);

  // The re-fetch operations sign for their own instant...
  const now = Date.parse((await t.call('/_mock/clock')).json<{ now: string }>().now);
  expect(expiresOf(refetched.consolidated_report_url)).toBe(Math.floor(now / 1000) + 24 * 3600);
  expect(expiresOf(formation.legal_report_url)).toBe(Math.floor(now / 1000) + 24 * 3600);
  expect((await t.call(refetched.consolidated_report_url!)).headers['content-type']).toBe('application/pdf');
  // ...and nothing is stored: the validation and the request, read at that instant, agree with the re-fetch (the
  // URL issued with the report has expired, so a read signs it anew for its own instant), and change no state.
  const after = await readValidation(validation.id);
  expect(after.data_source_run_batches[0]!.consolidated_report_url).toBe(refetched.consolidated_report_url);
  expect(after.data_source_run_batches[0]!.consolidated_report_url).not.toBe(issued);
  expect((await readRequest(requestId)).consolidated_report_url).toBe(refetched.consolidated_report_url);
  expect(after).toEqual(await readValidation(validation.id));
  expect(mockParts(t.server).world.engine.stateVersion).toBe(version);
});

test('two re-fetches at one instant give the same URL, and one a second later a newer one', async () => {
  const { batch } = await settledWithReport();
  await t.advance(HOURS_25);
  const read = async () => DataSourceRunBatch.parse((await t.get(`/api/v2/data_source_run_batches/${batch.id}`)).json()).consolidated_report_url;
  const first = await read();
  expect(await read()).toBe(first);
  await t.advance(1);
  expect(expiresOf(await read())).toBe(expiresOf(first) + 1);
});
