import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { BUILT_IN_SCENARIOS_DIR } from '../../src/engine/scenarios';
import { MAX_JSON_DEPTH } from '../../src/api/read-body';
import { InformationRequest } from '../../src/schemas';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { INFORMATION_REQUEST } from '../support/built-in-tins';

// Regression: an information_sheet nested 3,000 deep was stored by POST /_mock/information_requests/:id/analyze,
// and rendering it (structuredClone) overflowed the stack, so that call and every later read of the request
// answered 500. Every JSON body is now refused at input past MAX_JSON_DEPTH (src/api/read-body.ts).

const t = useTestServer();

/** `{"a":{"a":...{}}}`: `levels` objects, one inside the other. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}

/**
 * An information request of the `information-request` scenario with its items submitted through the control
 * API (items_collected), so it may be analysed; the manual clock has not moved.
 */
async function informationRequestId(): Promise<string> {
  const created = await t.create({ tin: INFORMATION_REQUEST, country: 'CL' });
  const id = created.information_requests[0]!.id;
  expect((await t.json('POST', `/_mock/information_requests/${id}/submit`, {})).status).toBe(202);
  return id;
}

const analyze = (id: string, body: unknown) => t.json('POST', `/_mock/information_requests/${id}/analyze`, body);

async function read(id: string): Promise<InformationRequest> {
  const answer = await t.get(`/api/v2/information_requests/${id}`);
  expect(answer.status).toBe(200);
  return InformationRequest.parse(answer.json());
}

test('an information_sheet nested 3,000 deep is refused with 422 at its path, and the request still reads as before', async () => {
  const id = await informationRequestId();
  expect((await analyze(id, { information_sheet: { legal_name: 'Panadería La Espiga SpA' } })).status).toBe(202);

  const error = expectApiError(await analyze(id, { information_sheet: nested(3_000) }), 422, 'validation_failed');
  // The body is level 1 and information_sheet level 2, so the first container past the limit is
  // MAX_JSON_DEPTH - 1 keys below the body.
  const path = `$.information_sheet${'.a'.repeat(MAX_JSON_DEPTH - 1)}`;
  expect(error.issues).toEqual([{ path, code: 'too_deep', message: expect.stringContaining(`${MAX_JSON_DEPTH}`) }]);
  expect(error.message).toContain(`${MAX_JSON_DEPTH} levels`);

  const request = await read(id);
  expect(request.information_sheet).toEqual({ legal_name: 'Panadería La Espiga SpA' });
  expect(t.unexpectedErrors).toEqual([]);
});

test('an information_sheet at exactly the allowed depth is accepted, stored and rendered', async () => {
  const id = await informationRequestId();
  // MAX_JSON_DEPTH levels in all: the body, then information_sheet and the objects inside it.
  const sheet = nested(MAX_JSON_DEPTH - 1);
  const answer = await analyze(id, { information_sheet: sheet });
  expect(answer.status).toBe(202);
  expect(InformationRequest.parse(answer.json()).information_sheet).toEqual(sheet);
  expect((await read(id)).information_sheet).toEqual(sheet);
  await t.runClock();
  expect(t.unexpectedErrors).toEqual([]);
});

test('one level past the allowed depth is refused, and the request keeps no information sheet', async () => {
  const id = await informationRequestId();
  expectApiError(await analyze(id, { information_sheet: nested(MAX_JSON_DEPTH) }), 422, 'validation_failed');
  const request = await read(id);
  expect(request).toMatchObject({ status: 'items_collected', information_sheet: null, analysis_chat: [] });
});

test('a deep array in an API body is refused the same way, with the JSON path through the array', async () => {
  const deep = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
  const answer = await t.call('/api/v2/entity_validations', {
    method: 'POST',
    headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
    body: `{"tin":"${INFORMATION_REQUEST}","country":"CL","extra":${deep}}`,
  });
  const error = expectApiError(answer, 422, 'validation_failed');
  expect(error.issues.map((issue) => [issue.path, issue.code])).toEqual([[`$.extra${'[0]'.repeat(MAX_JSON_DEPTH - 1)}`, 'too_deep']]);
});

test('a YAML scenario nested past the allowed depth is refused by POST /_mock/scenarios, and no scenario is added', async () => {
  const listed = async () => (await t.call('/_mock/scenarios')).json<{ scenarios: Array<{ name: string }> }>().scenarios.map((scenario) => scenario.name);
  const before = await listed();
  // The built-in information-request scenario under another name and TIN, its analysis step carrying a sheet too deep.
  const scenario = parseYaml(readFileSync(path.join(BUILT_IN_SCENARIOS_DIR, 'information-request.yaml'), 'utf8'));
  Object.assign(scenario, { name: 'deep-sheet', tins: ['11111111-1'] });
  scenario.entity.tin = '11111111-1';
  scenario.information_request.steps[1].analyze.information_sheet = nested(MAX_JSON_DEPTH);
  // JSON is YAML: sent as application/yaml, the body is read by the YAML parser, not by parseJsonBody.
  const answer = await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: JSON.stringify(scenario) });
  const error = expectApiError(answer, 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.code)).toEqual(['too_deep']);
  expect(error.issues[0]!.path).toMatch(/^\$\.information_request\.steps\[1\]\.analyze\.information_sheet(\.a)+$/);
  expect(await listed()).toEqual(before);
});
