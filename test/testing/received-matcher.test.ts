import '../../src/testing/jest';
import { SCENARIOS, startBvsMock, type RunningBvsMock } from '../../src/testing';

// Request verification (`expect(mock).toHaveReceived`, `mock.journal.requests`) over a real running bvs-mock: the
// client's requests as the journal kept them, counted, filtered by label and path template, and a failure that
// names the closest requests and what differed in each.

let bvs: RunningBvsMock;
beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant' });
});
afterAll(async () => {
  await bvs.stop();
});
beforeEach(async () => {
  await bvs.control.reset();
});

const headers = () => ({ authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' });
async function create(tin: string, label?: string): Promise<string> {
  const answer = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { ...headers(), ...(label === undefined ? {} : { 'x-bvs-mock-label': label }) },
    body: JSON.stringify({ tin, country: 'CL' }),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}
const read = (id: string) => bvs.fetch(`${bvs.url}/api/v2/entity_validations/${id}`, { headers: headers() });

test('counts the requests that meet the criteria: exactly, at least and at most, and none with .not', async () => {
  const id = await create(SCENARIOS.happyNoPartners.tin);
  await read(id);
  await read(id);
  await expect(bvs).toHaveReceived({ operation: 'createEntityValidation', body: { tin: SCENARIOS.happyNoPartners.tin }, times: 1 });
  await expect(bvs).toHaveReceived({ method: 'get', path: `/api/v2/entity_validations/${id}`, times: 2 });
  await expect(bvs).toHaveReceived({ method: 'GET', path: '/api/v2/entity_validations/{id}', times: { atLeast: 1, atMost: 2 } });
  await expect(bvs).toHaveReceived({ method: 'POST', path: /^\/api\/v2\/entity_validations$/ });
  await expect(bvs).not.toHaveReceived({ operation: 'createEntityValidation', body: { tin: SCENARIOS.happyPartners.tin } });
  await expect(bvs).not.toHaveReceived({ method: 'GET', path: '/api/v2/entity_validations/{id}', times: { atMost: 1 } });
  await expect(expect(bvs).toHaveReceived({ method: 'GET', path: '/api/v2/entity_validations/{id}', times: 3 })).rejects.toThrow(
    /expected the client to have sent GET \/api\/v2\/entity_validations\/\{id\} exactly 3 times, but it sent twice\.\nMatching requests:\n {2}GET \/api\/v2\/entity_validations\/evl_/,
  );
  await expect(expect(bvs).not.toHaveReceived({ operation: 'getEntityValidation' })).rejects.toThrow(
    /expected the client not to have sent getEntityValidation at least once, but it sent twice:/,
  );
});

test('a label narrows the count to the requests of one test, and the journal lists them with their bodies', async () => {
  await create(SCENARIOS.happyNoPartners.tin, 'first test');
  await create(SCENARIOS.happyNoPartners.tin, 'second test');
  await expect(bvs).toHaveReceived({ operation: 'createEntityValidation', label: 'first test', times: 1 });
  await expect(bvs).toHaveReceived({ operation: 'createEntityValidation', times: 2 });
  const requests = await bvs.journal.requests({ label: 'second test' });
  expect(requests).toHaveLength(1);
  expect(requests[0]).toMatchObject({
    method: 'POST',
    path: '/api/v2/entity_validations',
    status: 201,
    label: 'second test',
    body: { tin: SCENARIOS.happyNoPartners.tin, country: 'CL' },
  });
});

test('a near-miss report names the closest requests and the field that differed, with both values', async () => {
  const id = await create('76086428-6');
  await read(id);
  const failure = expect(bvs).toHaveReceived({ operation: 'createEntityValidation', body: { tin: '76086428-5', country: 'CL' }, times: 1 });
  await expect(failure).rejects.toThrow(
    'expected the client to have sent createEntityValidation, with body fields {"tin":"76086428-5","country":"CL"} exactly once, but it sent none.',
  );
  const message = await failure.catch((error: Error) => error.message);
  expect(message).toContain('Closest of the 2 requests in the journal (near misses):');
  expect(message).toMatch(
    / {2}1\. POST \/api\/v2\/entity_validations → 201 \(createEntityValidation, label "a near-miss report[^"]*", req_\S+ at \S+\)\n {7}\$\.tin: expected "76086428-5", got "76086428-6"/,
  );
  // The read meets none of the criteria: it is no near miss.
  expect(message).not.toContain('GET /api/v2/entity_validations/');
});

test('a near miss by method, path and label says which differed', async () => {
  const id = await create(SCENARIOS.happyNoPartners.tin, 'mine');
  await read(id);
  const message = await expect(bvs)
    .toHaveReceived({ method: 'PATCH', path: '/api/v2/entity_validations/{id}', label: 'mine' })
    .catch((error: Error) => error.message);
  expect(message).toMatch(
    /1\. GET \/api\/v2\/entity_validations\/evl_\S+ → 200[^\n]*\n {7}method: expected PATCH, got GET\n {7}label: expected "mine", got "a near miss by method[^"]*"/,
  );
  expect(message).toMatch(
    /2\. POST \/api\/v2\/entity_validations → 201[^\n]*\n {7}method: expected PATCH, got POST\n {7}path: expected \/api\/v2\/entity_validations\/\{id\}, got \/api\/v2\/entity_validations$/,
  );
});

test('an empty journal, and criteria nothing comes close to, are said as such', async () => {
  await expect(expect(bvs).toHaveReceived({ operation: 'createEntityValidation' })).rejects.toThrow('The journal holds no request of the client.');
  await read('evl_missing');
  await expect(expect(bvs).toHaveReceived({ operation: 'createEntityValidation' })).rejects.toThrow(
    /None of the 1 requests in the journal meets any of the criteria; the last ones:\n {2}GET \/api\/v2\/entity_validations\/evl_missing → 404/,
  );
});

test('bad criteria are refused with what and why, before anything is read', async () => {
  await expect(expect(bvs).toHaveReceived({ methd: 'GET' } as never)).rejects.toThrow('the journal filter has an unknown key "methd"');
  await expect(expect(bvs).toHaveReceived({ method: 'GET', times: { atLeast: 3, atMost: 1 } })).rejects.toThrow('atLeast (3) is above atMost (1)');
  await expect(expect(bvs).toHaveReceived({ path: 'api/v2' })).rejects.toThrow('path must be a path starting with /');
  await expect(expect({}).toHaveReceived({ method: 'GET' })).rejects.toThrow('takes what startBvsMock answers');
});

test('the control API filters the journal itself, and refuses a bad filter naming the parameter', async () => {
  const id = await create(SCENARIOS.happyNoPartners.tin);
  await read(id);
  const page = await bvs.control.requests({ path: '/api/v2/entity_validations/{id}', method: 'get' });
  expect(page.requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /api/v2/entity_validations/${id}`]);
  expect((await bvs.control.requests({ status: 201 })).requests.map((request) => request.operation)).toEqual(['createEntityValidation']);
  const answer = await bvs.fetch(`${bvs.url}/_mock/requests?status=abc&path=nope`);
  expect(answer.status).toBe(422);
  const problem = JSON.stringify(await answer.json());
  expect(problem).toContain('$query.path');
  expect(problem).toContain('$query.status');
});

test("the journal keeps a body's secrets masked", async () => {
  await bvs.fetch(`${bvs.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: bvs.oauthClient.clientId, client_secret: bvs.oauthClient.clientSecret }),
  });
  const [token] = await bvs.journal.requests({ operation: 'createOAuthToken' });
  expect(token!.body).toEqual({
    grant_type: 'client_credentials',
    client_id: bvs.oauthClient.clientId,
    client_secret: `****${bvs.oauthClient.clientSecret.slice(-4)}`,
  });
});
