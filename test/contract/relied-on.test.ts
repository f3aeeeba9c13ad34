import { EntityValidation, type ReliedOnChoice } from '../../src/schemas';
import { SCENARIOS, startBvsMock, startWebhookReceiver, type RunningBvsMock, type WebhookReceiver } from '../../src/testing';

// The contract report's relied_on (docs/fidelity.md): which choices of bvs-mock, where the spec is silent or unsure,
// one client run exercised, each with its row and where it was first seen.

let bvs: RunningBvsMock;
let receiver: WebhookReceiver;
beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant' });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await bvs.stop();
  await receiver.close();
});
beforeEach(async () => {
  await bvs.control.reset();
  await bvs.control.createEndpoint({ name: 'client', url: receiver.url, auth_type: 'none' });
});

/** A token for the session's OAuth client, asking for `scope` when given. */
async function token(scope?: string): Promise<Response> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: bvs.oauthClient.clientId, client_secret: bvs.oauthClient.clientSecret });
  if (scope !== undefined) form.set('scope', scope);
  return bvs.fetch(`${bvs.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
}

async function call(method: string, path: string, accessToken: string, body?: unknown): Promise<Response> {
  return bvs.fetch(`${bvs.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const rowsOf = (reliedOn: readonly ReliedOnChoice[]) => [...new Set(reliedOn.map((item) => item.row))];
const find = (reliedOn: readonly ReliedOnChoice[], row: number, words: string) => reliedOn.find((item) => item.row === row && item.choice.includes(words));

test('one client run: a scope asked by name, an extension path, an invented status read, a failed main ready, an unlisted error code, each with its row', async () => {
  const granted = await token('validations:read validations:write');
  expect(granted.status).toBe(200);
  const accessToken = ((await granted.json()) as { access_token: string }).access_token;
  // A validation with an information request, driven to in_review, then read through the extension path.
  const createdAnswer = await call('POST', '/api/v2/entity_validations', accessToken, {
    tin: SCENARIOS.happyNoPartners.tin,
    country: SCENARIOS.happyNoPartners.country,
    information_request: { template_id: 'irt_example' },
  });
  expect(createdAnswer.status).toBe(201);
  const created = EntityValidation.parse(await createdAnswer.json());
  await bvs.control.waitForSettled(created.id);
  const requestId = created.information_requests[0]!.id;
  await bvs.control.informationRequest.submit(requestId);
  await bvs.control.informationRequest.analyze(requestId, { information_sheet: { reviewed: true } });
  const read = await call('GET', `/api/v2/information_requests/${requestId}`, accessToken);
  expect(((await read.json()) as { status: string }).status).toBe('in_review');
  const readId = read.headers.get('x-request-id')!;
  // A main entity that fails: its ready arrives with runs_succeeded false.
  const failed = EntityValidation.parse(
    await (
      await call('POST', '/api/v2/entity_validations', accessToken, { tin: SCENARIOS.mainDefinitiveError.tin, country: SCENARIOS.mainDefinitiveError.country })
    ).json(),
  );
  await bvs.control.waitForSettled(failed.id);
  // An id that does not exist: 404 not_found, a code the spec does not list; a scope that does not exist.
  expect((await call('GET', '/api/v2/entity_validations/evl_missing', accessToken)).status).toBe(404);
  expect((await token('validations:everything')).status).toBe(400);

  const reliedOn = (await bvs.control.report()).relied_on;
  // Listed once per row and choice, in row order.
  expect(reliedOn.map((item) => item.row)).toEqual([...reliedOn.map((item) => item.row)].sort((a, b) => a - b));
  expect(new Set(reliedOn.map((item) => `${item.row} ${item.choice}`)).size).toBe(reliedOn.length);
  expect(rowsOf(reliedOn)).toEqual(expect.arrayContaining([13, 18, 19, 25, 31, 46, 69]));

  expect(find(reliedOn, 18, '`GET /api/v2/information_requests/:id`')).toMatchObject({
    seen: { count: 1, first: { request_id: readId, request: `GET /api/v2/information_requests/${requestId}` } },
  });
  // in_review came first in the analysis_success delivered to the receiver; the extension's answer counts too.
  const inReview = find(reliedOn, 13, '`in_review`')!;
  expect(inReview.seen.first).toMatchObject({ event: 'information_request.analysis_success', resource_id: requestId });
  expect(inReview.seen.first.delivery_id).toMatch(/^evt_/);
  expect(inReview.seen.count).toBeGreaterThanOrEqual(3);
  expect(find(reliedOn, 13, '`items_collected`')).toBeDefined();
  expect(find(reliedOn, 19, '`validations:read` asked for by name')).toMatchObject({ seen: { count: 1, first: { request: 'POST /oauth/token' } } });
  expect(find(reliedOn, 19, '`validations:write` asked for by name')).toMatchObject({ seen: { count: 1 } });
  expect(find(reliedOn, 19, '`invalid_scope`')).toMatchObject({ seen: { count: 1 } });
  expect(find(reliedOn, 69, '`invalid_scope` (HTTP 400)')).toMatchObject({ seen: { count: 1 } });
  expect(find(reliedOn, 31, 'ready-on-main-failure=sent')).toMatchObject({
    seen: { count: 1, first: { event: 'data_source_run_batch.ready', resource_id: failed.data_source_run_batches[0]!.id } },
  });
  expect(find(reliedOn, 25, 'Error code `not_found` with HTTP 404')).toMatchObject({
    seen: { count: 1, first: { request: 'GET /api/v2/entity_validations/evl_missing' } },
  });
  expect(find(reliedOn, 46, '201 Created')).toMatchObject({ seen: { count: 2 } });
});

test('a token request without a scope relies on row 19 alone, and a reset empties relied_on', async () => {
  expect((await token()).status).toBe(200);
  expect(rowsOf((await bvs.control.report()).relied_on)).toEqual([19]);
  await bvs.control.reset();
  expect((await bvs.control.report()).relied_on).toEqual([]);
});
