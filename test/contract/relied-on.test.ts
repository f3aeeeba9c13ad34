import { renderMergedReport } from '../../src/contract';
import { HAVE_XMLLINT, expectValidJunit } from '../support/junit-schema';
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

test('a token asked for with HTTP Basic relies on row 69 (the reading token-client-auth), the form alone does not', async () => {
  expect((await token()).status).toBe(200);
  expect(find((await bvs.control.report()).relied_on, 69, 'HTTP Basic')).toBeUndefined();
  const basic = Buffer.from(`${bvs.oauthClient.clientId}:${bvs.oauthClient.clientSecret}`).toString('base64');
  const answer = await bvs.fetch(`${bvs.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: 'grant_type=client_credentials',
  });
  expect(answer.status).toBe(200);
  expect(find((await bvs.control.report()).relied_on, 69, 'HTTP Basic')).toMatchObject({ seen: { count: 1, first: { request: 'POST /oauth/token' } } });
});

test('the Markdown report has a section of the choices relied on, a table by row; JUnit a suite of passing cases that follows the JUnit schema', async () => {
  const granted = await token('validations:read');
  const accessToken = ((await granted.json()) as { access_token: string }).access_token;
  const tokenRequest = granted.headers.get('x-request-id')!;
  expect((await call('GET', '/api/v2/information_requests/irq_missing', accessToken)).status).toBe(404);

  const markdown = await bvs.control.report('markdown');
  expect(markdown).toContain('| Choices of bvs-mock relied on (docs/fidelity.md rows) | 3 |');
  const section = markdown.slice(markdown.indexOf("## Relied on bvs-mock's choices"));
  expect(
    section
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .map((line) => line.split(' | ')[0]),
  ).toEqual(['| Row', '| ---', '| 18', '| 19', '| 25']);
  expect(section).toContain(
    `| 19 | Scope \\\`validations:read\\\` asked for by name (the spec names no scope) | 1 time, first ${tokenRequest.replace('_', '\\_')} POST /oauth/token at `,
  );

  const junit = await bvs.control.report('junit');
  if (HAVE_XMLLINT || process.env.CI === 'true') expectValidJunit(junit);
  const suite = /<testsuite [^>]*name="bvs-mock contract: relied on bvs-mock's choices"[^>]*>([\s\S]*?)<\/testsuite>/.exec(junit);
  const [whole, cases] = [suite![0], suite![1]!];
  expect(whole).toContain('tests="3" failures="0"');
  expect(cases).not.toContain('<failure');
  expect([...cases.matchAll(/<testcase name="row (\d+): /g)].map((match) => Number(match[1]))).toEqual([18, 19, 25]);
  expect(cases).toContain('<system-out>Choices of bvs-mock where the spec is silent or unsure');
});

test('a suite-level report merges relied_on: one entry per row and choice, counts summed, the first occurrence of the first report kept', async () => {
  const base = await bvs.control.report();
  const choice = (row: number, text: string, count: number, request_id: string): ReliedOnChoice => ({
    row,
    choice: text,
    seen: { count, first: { at: '2026-01-15T10:00:00.000Z', request_id } },
  });
  const reports = [
    { name: 'test/a.test.ts', report: { ...base, relied_on: [choice(13, 'in_review', 2, 'req_a1'), choice(25, 'not_found', 1, 'req_a2')] } },
    { name: 'test/b.test.ts', report: { ...base, relied_on: [choice(18, 'extension', 1, 'req_b1'), choice(25, 'not_found', 3, 'req_b2')] } },
  ];
  const merged = JSON.parse(renderMergedReport(reports, 'json', new Date())) as { relied_on: ReliedOnChoice[] };
  expect(merged.relied_on).toEqual([
    { row: 13, choice: 'in_review', seen: { count: 2, first: { at: '2026-01-15T10:00:00.000Z', request_id: 'req_a1', report: 'test/a.test.ts' } } },
    { row: 18, choice: 'extension', seen: { count: 1, first: { at: '2026-01-15T10:00:00.000Z', request_id: 'req_b1', report: 'test/b.test.ts' } } },
    { row: 25, choice: 'not_found', seen: { count: 4, first: { at: '2026-01-15T10:00:00.000Z', request_id: 'req_a2', report: 'test/a.test.ts' } } },
  ]);
  // JUnit: one suite for the whole run, not one per report; Markdown: one table after the reports.
  const junit = renderMergedReport(reports, 'junit', new Date());
  expect(junit.match(/relied on bvs-mock&apos;s choices|relied on bvs-mock's choices/g)).toHaveLength(1);
  expect(junit).toContain('<testcase name="row 25: not_found (4 times, first in test/a.test.ts: req_a2 at 2026-01-15T10:00:00.000Z)"');
  if (HAVE_XMLLINT || process.env.CI === 'true') expectValidJunit(junit);
  const markdown = renderMergedReport(reports, 'markdown', new Date());
  expect(markdown.match(/## Relied on bvs-mock's choices/g)).toHaveLength(1);
  expect(markdown).toContain('| 25 | not\\_found | 4 times, first in test/a.test.ts: req\\_a2 at 2026-01-15T10:00:00.000Z |');
});
