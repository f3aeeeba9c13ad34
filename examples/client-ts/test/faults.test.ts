import { SCENARIOS, startBvsMock, type RunningBvsMock } from 'bvs-mock/testing';
import { BvsClient } from '../src/bvs-client';

// The client under the API faults bvs-mock injects: it waits Retry-After, backs off after 5xx answers and a
// reset connection, and renews a revoked token; bvs-mock's report grades each of these, and all pass.

let bvs: RunningBvsMock;
beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant' });
});
afterAll(() => bvs.stop());

test('every call succeeds through the faults, and the report finds the client well behaved', async () => {
  const client = new BvsClient({ baseUrl: bvs.url, clientId: bvs.oauthClient.clientId, clientSecret: bvs.oauthClient.clientSecret, fetch: bvs.fetch });
  const tin = SCENARIOS.happyNoPartners.tin;
  await bvs.control.addFault({ kind: 'api_error', code: 'rate_limited', retry_after: 1, count: 1, path: '/api/v2/entity_validations' });
  const created = await client.createValidation({ tin, country: 'CL' });
  await bvs.control.clearFaults();
  await bvs.control.addFault({ kind: 'api_error', code: 'service_unavailable', count: 2, path: '/api/v2/entity_validations' });
  await client.getValidation(created.id);
  await bvs.control.clearFaults();
  await bvs.control.addFault({ kind: 'api_reset', count: 1, path: '/api/v2/entity_validations' });
  await client.getValidation(created.id);
  await bvs.control.clearFaults();
  await bvs.control.addFault({ kind: 'token_revoked', count: 1 });
  await client.getValidation(created.id);
  await bvs.control.clearFaults();

  const { client_behaviour: behaviour } = await bvs.control.report();
  expect(behaviour.findings.map((finding) => `${finding.check} ${finding.outcome}`)).toEqual([
    'retry-after pass',
    'backoff pass',
    'backoff pass',
    'token-renewal pass',
  ]);
});
