import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { HAVE_XMLLINT, expectValidJunit } from '../support/junit-schema';

// The contract report as CI systems read it: JUnit XML (one case per operation, event type, violation and
// receiver; findings fail), Markdown for a job page, JSON (docs/fidelity.md row 83).

const junitTest = HAVE_XMLLINT || process.env.CI === 'true' ? test : test.skip;
if (!HAVE_XMLLINT && process.env.CI !== 'true') {
  process.stderr.write(
    'report-formats: xmllint is not installed (Debian: apt-get install libxml2-utils; .ci/run installs it), so the JUnit schema check is skipped here\n',
  );
}

let receiver: WebhookReceiver;
let failing = true;
beforeAll(async () => {
  // Fails each delivery's first attempt, and answers one delivery slowly: findings of the receiver kind.
  const seen = new Set<string>();
  let slow = true;
  receiver = await startWebhookReceiver({
    respond: (hook) => {
      if (failing && !seen.has(hook.raw)) {
        seen.add(hook.raw);
        return 500;
      }
      if (failing && slow) {
        slow = false;
        return { status: 200, delayMs: 1_100 };
      }
      return 200;
    },
  });
});
afterAll(async () => {
  await receiver.close();
});

const t = useTestServer(() => ({ webhookUrl: receiver.url }));

async function runWithOneWrongRequest(): Promise<void> {
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  // The one wrong request: a field the contract does not know.
  expect(
    (await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL', nickname: 'x' }, { authorization: 'Bearer test_key_default' }))
      .status,
  ).toBe(201);
}

junitTest('the JUnit report of a run with one wrong request follows the JUnit schema and has exactly one failing case, naming it', async () => {
  failing = false;
  await runWithOneWrongRequest();
  await t.runClock();
  const answer = await t.call('/_mock/report?format=junit');
  expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
  const xml = answer.text();
  expectValidJunit(xml);
  const failures = [...xml.matchAll(/<testcase name="([^"]*)"[^>]*>\s*<failure message="([^"]*)"/g)];
  expect(failures).toHaveLength(1);
  expect(failures[0]![1]).toMatch(/^POST \/api\/v2\/entity_validations \(req_\d+\): \$\.nickname unknown_field$/);
  expect(xml).toContain('<testcase name="createEntityValidation: called 2 times" classname="bvs-mock.operations" time="0"/>');
  expect(xml).toContain('name="getEntityValidation: not called"');
  // getFormation is a path of bvs-mock's choosing: not a gap of the spec's operations.
  expect(xml).not.toContain('name="getFormation: not called"');
});

junitTest('a receiver that answered 500 and once slower than a second fails its case, saying so', async () => {
  failing = true;
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const xml = (await t.call('/_mock/report?format=junit')).text();
  expectValidJunit(xml);
  const receiverCase = /<testcase name="([^"]*)" classname="bvs-mock.receivers"[^>]*>\s*<failure message="([^"]*)"/.exec(xml);
  expect(receiverCase?.[1]).toContain(receiver.url);
  expect(receiverCase?.[2]).toMatch(/answers? outside 2xx; 1 answer slower than 1000 ms \(slowest \d+ ms; spec §6: answer HTTP 200 quickly\)/);
  const json = (await t.call('/_mock/report')).json<{
    receivers: { quick_answer_ms: number; findings: Array<{ not_2xx: number; retried_deliveries: number; slow_answers: number }> };
  }>();
  expect(json.receivers.quick_answer_ms).toBe(1000);
  expect(json.receivers.findings[0]).toMatchObject({ slow_answers: 1 });
  expect(json.receivers.findings[0]!.not_2xx).toBe(json.receivers.findings[0]!.retried_deliveries);
});

test('the Markdown report sums the run up for a CI job page and lists the findings', async () => {
  failing = false;
  await runWithOneWrongRequest();
  const answer = await t.call('/_mock/report?format=markdown');
  expect(answer.headers['content-type']).toBe('text/markdown; charset=utf-8');
  const text = answer.text();
  expect(text).toMatch(/^# bvs-mock contract report\n\nMade \d{4}-.*\*\*1 finding\.\*\*/);
  expect(text).toContain('| Requests with violations | 1 (1 violation in all) |');
  expect(text).toMatch(
    /## Findings\n\n- \*\*violations\*\*: POST \/api\/v2\/entity\\_validations \(req\\_\d+\): \$\.nickname unknown\\_field: \$\.nickname: "nickname" is not a known field here/,
  );
});

test('a request with more violations than are kept counts them all in the Markdown report and has one JUnit case for those not listed', async () => {
  failing = false;
  const body: Record<string, unknown> = { tin: HAPPY_PARTNERS, country: 'CL' };
  for (let index = 0; index < 150; index += 1) body[`extra${index}`] = index;
  expect((await t.json('POST', '/api/v2/entity_validations', body, { authorization: 'Bearer test_key_default' })).status).toBe(201);
  expect((await t.call('/_mock/report?format=markdown')).text()).toContain('| Requests with violations | 1 (150 violations in all) |');
  const xml = (await t.call('/_mock/report?format=junit')).text();
  const failures = [...xml.matchAll(/<testcase name="([^"]*)"[^>]*>\s*<failure message="([^"]*)"/g)];
  expect(failures).toHaveLength(101);
  expect(failures[100]![1]).toMatch(/^POST \/api\/v2\/entity_validations \(req_\d+\): 50 more violations$/);
  expect(failures[100]![2]).toBe('50 more violations than the 100 listed');
});

test('an unknown format is a 422 at $query.format naming the formats', async () => {
  const error = expectApiError(await t.call('/_mock/report?format=html'), 422, 'validation_failed');
  expect(error.issues).toEqual([{ path: '$query.format', code: 'invalid_value', message: 'must be one of json, markdown, junit, got "html"' }]);
});
