import { EntityValidation, InformationRequest } from '../../src/schemas';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { CL_FORMATION, HAPPY_NO_PARTNERS, HAPPY_PARTNERS, MISSING_INPUT_DATA } from '../support/built-in-tins';

// The control API's levers on the engine: revalidation, input for a missing_input_data run, and the
// information request actions with their refusals (docs/design.md, Control API; docs/fidelity.md rows 13, 14, 34).

const t = useTestServer();
const events = t.events;

const types = () => events.map((event) => event.type);
const read = async (id: string) => EntityValidation.parse((await t.get(`/api/v2/entity_validations/${id}`)).json());

test('revalidate answers 202 and plays the tree again as a new main batch; formation.ready fires once more', async () => {
  const created = await t.create({ tin: CL_FORMATION, country: 'CL' });
  await t.runClock();
  const answer = await t.json('POST', `/_mock/entity_validations/${created.id}/revalidate`, {});
  expect(answer.status).toBe(202);
  EntityValidation.parse(answer.json());
  await t.runClock();
  const validation = await read(created.id);
  expect(validation.data_source_run_batches).toHaveLength(2);
  expect(types().filter((type) => type === 'entity_validation.formation.ready')).toHaveLength(2);
  expect(types().filter((type) => type === 'data_source_run_batch.child_batches_ready')).toHaveLength(1);
});

test('revalidate refuses a related entity with 409 and an unknown id with 404', async () => {
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const partner = (await read(created.id)).related_entities[0]!;
  const conflict = expectApiError(await t.json('POST', `/_mock/entity_validations/${partner.id}/revalidate`, {}), 409, 'conflict');
  expect(conflict.message).toContain(created.id);
  expectApiError(await t.json('POST', '/_mock/entity_validations/evl_missing/revalidate', {}), 404, 'not_found');
});

test('input supplied to a missing_input_data run lets the tree complete; a second supply answers 409', async () => {
  const created = await t.create({ tin: MISSING_INPUT_DATA, country: 'CL' });
  await t.runClock();
  const waiting = (await read(created.id)).latest_data_source_runs.find((run) => run.status === 'missing_input_data');
  expect(waiting).toBeDefined();
  expect(types()).not.toContain('data_source_run_batch.ready');
  const answer = await t.json('POST', `/_mock/data_source_runs/${waiting!.id}/input`, {});
  expect(answer.status).toBe(202);
  expect(answer.json()).toEqual({ data_source_run_id: waiting!.id, status: 'input_supplied' });
  await t.runClock();
  const validation = await read(created.id);
  expect(validation.latest_data_source_runs.find((run) => run.id === waiting!.id)!.status).toBe('succeeded');
  expect(validation.data_source_run_batches[0]!.runs_succeeded).toBe(true);
  expect(types()).toEqual(
    expect.arrayContaining(['data_source_run_batch.ready', 'data_source_run_batch.child_batches_ready', 'data_source_run_batch.consolidated_report_ready']),
  );
  expectApiError(await t.json('POST', `/_mock/data_source_runs/${waiting!.id}/input`, {}), 409, 'conflict');
  expectApiError(await t.json('POST', '/_mock/data_source_runs/dsr_missing/input', {}), 404, 'not_found');
});

/** A validation with the default information request (one document item, driven by hand). */
async function drivenRequest(): Promise<string> {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL', information_request: { template_id: 'irt_driven' } });
  return created.information_requests[0]!.id;
}

const action = (id: string, name: string, body: unknown = {}) => t.json('POST', `/_mock/information_requests/${id}/${name}`, body);

test('the information request actions play the flow to evaluated, each answering 202 with the request', async () => {
  const id = await drivenRequest();
  const step = async (name: string, body: unknown, status: string) => {
    const answer = await action(id, name, body);
    expect(answer.status).toBe(202);
    expect(InformationRequest.parse(answer.json()).status).toBe(status);
  };
  await step('submit', {}, 'items_collected');
  await t.runClock();
  await step('analyze', { information_sheet: { legal_name: 'Panadería La Espiga SpA' }, chat: [{ role: 'assistant', content: 'Consistent.' }] }, 'in_review');
  await step('assignments', { reviewer_email: 'ana@client.example.com', role: 'responsible' }, 'in_review');
  await step('assignments/complete', { reviewer_email: 'ana@client.example.com' }, 'in_review');
  await step('evaluate', { comment: 'Approved.' }, 'evaluated');
  const request = InformationRequest.parse((await t.get(`/api/v2/information_requests/${id}`)).json());
  expect(request).toMatchObject({ status: 'evaluated', responsible_comment: 'Approved.', information_sheet: { legal_name: 'Panadería La Espiga SpA' } });
  expect(request.assignments).toEqual([expect.objectContaining({ reviewer_email: 'ana@client.example.com', role: 'responsible', status: 'completed' })]);
  expect(types().filter((type) => type.startsWith('information_request.'))).toEqual([
    'information_request.all_items_collected',
    'information_request.status_updated',
    'information_request.requestable_item.extracted',
    'information_request.analysis_success',
    'information_request.status_updated',
    'information_request.assignment.updated',
    'information_request.assignment.updated',
    'information_request.evaluated',
    'information_request.status_updated',
  ]);
});

test('repeating an information request action answers 409 conflict', async () => {
  const id = await drivenRequest();
  expect((await action(id, 'submit')).status).toBe(202);
  expectApiError(await action(id, 'submit'), 409, 'conflict');
  expect((await action(id, 'assignments', { reviewer_email: 'ana@client.example.com', role: 'responsible' })).status).toBe(202);
  expectApiError(await action(id, 'assignments', { reviewer_email: 'ana@client.example.com' }), 409, 'conflict');
  expect((await action(id, 'assignments/complete', { reviewer_email: 'ana@client.example.com' })).status).toBe(202);
  expectApiError(await action(id, 'assignments/complete', { reviewer_email: 'ana@client.example.com' }), 409, 'conflict');
  expect((await action(id, 'analyze')).status).toBe(202);
  expect((await action(id, 'evaluate', { comment: 'Approved.' })).status).toBe(202);
  expectApiError(await action(id, 'evaluate', { comment: 'Again.' }), 409, 'conflict');
  expectApiError(await action(id, 'analyze'), 409, 'conflict');
});

test.each([
  ['submit', {}],
  ['analyze', {}],
  ['assignments', { reviewer_email: 'ana@client.example.com' }],
  ['assignments/complete', { reviewer_email: 'ana@client.example.com' }],
  ['evaluate', { comment: 'Approved.' }],
])('%s on an unknown information request answers 404 not_found', async (name, body) => {
  expectApiError(await action('irq_missing', name, body), 404, 'not_found');
});

test.each([
  ['assignments', { reviewer_email: 'not-an-email' }, '$.reviewer_email'],
  ['evaluate', { comment: '' }, '$.comment'],
  ['submit', { items: [] }, '$.items'],
])('%s with a bad body answers 422 at its path', async (name, body, path) => {
  const id = await drivenRequest();
  const error = expectApiError(await action(id, name, body), 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.path)).toEqual([path]);
});

// Finding: control-routes.ts passes the flow's refusal through unwrap(), which turns every not_found into
// "No information request with id … in your organization" though the request exists; the engine's own
// message (which names the items, or the reviewer) is lost.
test('submitting an item name the request does not have answers 404 naming the items it has', async () => {
  const id = await drivenRequest();
  const error = expectApiError(await action(id, 'submit', { items: ['Bank statement'] }), 404, 'not_found');
  expect(error.message).toContain('Company deed');
});

test('completing the assignment of a reviewer who is not assigned answers 404 naming the reviewer', async () => {
  const id = await drivenRequest();
  const error = expectApiError(await action(id, 'assignments/complete', { reviewer_email: 'nobody@client.example.com' }), 404, 'not_found');
  expect(error.message).toContain('nobody@client.example.com');
});

// Finding: recipient_url points at /_mock/recipient/:id on this server (engine-context.ts recipientPath),
// but no route serves it: following the URL the mock itself gave answers 404 route_not_found.
test('the recipient_url of an information request leads somewhere on the mock', async () => {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL', information_request: { template_id: 'irt_driven' } });
  const answer = await t.call(created.information_requests[0]!.recipient_url);
  expect(answer.status).toBeLessThan(400);
});
