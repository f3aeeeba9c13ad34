import { MAX_ISSUE_TEXT, MAX_LISTED_ISSUES } from '../../src/schemas';
import { DEFAULT_API_KEY, bearer, expectApiError } from '../support/api-test-server';
import { stopSpawned } from '../support/built-cli';
import type { HttpAnswer } from '../support/https-client';
import { startServedCli, type ServedCli } from '../support/served-cli';

// Regression: stripping unknown fields copied the whole body once per unknown key (quadratic): a create
// with 16,000 unknown keys took 35.6 s while /_mock/health waited, and 60,000 kept the event loop busy
// for over 10 minutes. Each journal entry also kept every violation (60 entries made a 9.3 MB page).
// Unknown fields are now stripped in one pass (src/api/read-body.ts checkBody), and a request keeps
// and answers at most MAX_LISTED_ISSUES issues, with the count of those left out. The server runs in a
// child process, so a frozen event loop fails the test by its timeout instead of stalling jest.

const CREATE = '/api/v2/entity_validations';
const UNKNOWN_KEYS = 60_000;

afterEach(stopSpawned);

/** A create body with `count` unknown top-level fields (`"k0":1,` ... about 650 KB for 60,000). */
function manyUnknownFields(count: number): Record<string, unknown> {
  const body: Record<string, unknown> = { tin: '76920415-6', country: 'CL' };
  for (let index = 0; index < count; index += 1) body[`k${index}`] = 1;
  return body;
}

interface Violations {
  id: string;
  violations: Array<{ path: string; code: string; message: string }>;
  violations_omitted?: number;
}

function create(served: ServedCli, body: unknown): Promise<HttpAnswer> {
  return served.client.request(CREATE, {
    method: 'POST',
    headers: { ...bearer(DEFAULT_API_KEY), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The hostile create and a health call sent beside it: both must be answered (a frozen event loop answers neither in time). */
async function createBesideHealth(served: ServedCli, body: unknown): Promise<HttpAnswer> {
  const [created, health] = await Promise.all([create(served, body), served.client.request('/_mock/health')]);
  expect(health.status).toBe(200);
  return created;
}

async function violatingRequests(served: ServedCli): Promise<{ requests: Violations[]; bytes: number }> {
  const page = await served.client.request('/_mock/requests?violations=true');
  expect(page.status).toBe(200);
  return { requests: page.json<{ requests: Violations[] }>().requests, bytes: page.body.length };
}

test('a create with 60,000 unknown fields is answered 201 while a health call beside it is answered', async () => {
  const served = await startServedCli();
  try {
    const created = await createBesideHealth(served, manyUnknownFields(UNKNOWN_KEYS));
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ tin: '76920415-6', country: 'CL' });
  } finally {
    await served.close();
  }
}, 30_000);

test('the journal keeps MAX_LISTED_ISSUES violations of such a request and counts the others, so its page stays small', async () => {
  const served = await startServedCli();
  try {
    const created = await createBesideHealth(served, manyUnknownFields(UNKNOWN_KEYS));
    const { requests, bytes } = await violatingRequests(served);
    const [entry] = requests;
    expect(entry!.id).toBe(created.headers['x-request-id']);
    expect(entry!.violations).toHaveLength(MAX_LISTED_ISSUES);
    expect(entry!.violations[0]).toEqual({ path: '$.k0', code: 'unknown_field', message: '"k0" is not a known field here' });
    expect(entry!.violations_omitted).toBe(UNKNOWN_KEYS - MAX_LISTED_ISSUES);
    expect(bytes).toBeLessThan(16_384);

    // The contract report counts every violation, and lists the kept ones.
    const report = (await served.client.request('/_mock/report')).json<{
      violations: { issues: number; violating_requests: number; requests: Violations[] };
    }>();
    expect(report.violations).toMatchObject({ issues: UNKNOWN_KEYS, violating_requests: 1 });
    expect(report.violations.requests[0]!.violations).toHaveLength(MAX_LISTED_ISSUES);
    expect(report.violations.requests[0]!.violations_omitted).toBe(UNKNOWN_KEYS - MAX_LISTED_ISSUES);
  } finally {
    await served.close();
  }
}, 30_000);

test('with --strict the 422 lists MAX_LISTED_ISSUES issues and says how many more there are, and so does the journal', async () => {
  const served = await startServedCli(['--strict']);
  try {
    const refused = await createBesideHealth(served, manyUnknownFields(UNKNOWN_KEYS));
    const error = expectApiError(refused, 422, 'validation_failed');
    expect(error.issues).toHaveLength(MAX_LISTED_ISSUES);
    expect((error as { issues_omitted?: number }).issues_omitted).toBe(UNKNOWN_KEYS - MAX_LISTED_ISSUES);
    expect(error.message).toMatch(/^The request body has 60000 problems: \$\.k0: "k0" is not a known field here; /);
    expect(error.message).toMatch(/; and 59900 more \(the first 100 are listed\)$/);
    expect(refused.body.length).toBeLessThan(32_768);
    const [entry] = (await violatingRequests(served)).requests;
    expect(entry!.violations).toHaveLength(MAX_LISTED_ISSUES);
    expect(entry!.violations_omitted).toBe(UNKNOWN_KEYS - MAX_LISTED_ISSUES);
  } finally {
    await served.close();
  }
}, 30_000);

test('an unknown field with a 200,000-character name is kept in the journal shortened to MAX_ISSUE_TEXT characters', async () => {
  const served = await startServedCli();
  try {
    const created = await create(served, { tin: '76920415-6', country: 'CL', ['x'.repeat(200_000)]: 1 });
    expect(created.status).toBe(201);
    const { requests, bytes } = await violatingRequests(served);
    const [violation] = requests[0]!.violations;
    expect(violation!.code).toBe('unknown_field');
    expect(violation!.path.length).toBeLessThanOrEqual(MAX_ISSUE_TEXT);
    expect(violation!.path).toMatch(/^\$\.x+… \(200002 characters in all\)$/);
    expect(violation!.message.length).toBeLessThanOrEqual(MAX_ISSUE_TEXT);
    expect(bytes).toBeLessThan(4 * MAX_ISSUE_TEXT);
  } finally {
    await served.close();
  }
}, 30_000);
