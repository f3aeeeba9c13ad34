import { InformationRequest } from '../../src/schemas';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// An information request is a state machine (docs/fidelity.md rows 13, 70 and 71):
// pending → items_collected (every item submitted) → in_review (analysed) → evaluated (by the
// responsible reviewer). With only an irt_ given, bvs-mock used to accept impossible orders: evaluate
// before anything, submit after evaluation moving the status back, a second evaluated event, analyze
// straight from pending.

const t = useTestServer();

async function newRequest(): Promise<string> {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL', information_request: { template_id: 'irt_order' } });
  return created.information_requests[0]!.id;
}

const action = (id: string, name: string, body: unknown = {}) => t.json('POST', `/_mock/information_requests/${id}/${name}`, body);

async function expectStatus(id: string, name: string, body: unknown, status: string): Promise<void> {
  const answer = await action(id, name, body);
  expect([name, answer.status]).toEqual([name, 202]);
  expect(InformationRequest.parse(answer.json()).status).toBe(status);
}

const eventsOf = (id: string) =>
  t.events
    .filter((event) => event.type.startsWith('information_request.') && event.resourceId === id)
    .map((event) => [event.type, (event.body as { information_request?: { status: string } }).information_request?.status ?? null]);

test('evaluate before any item was submitted, analysed or assigned is refused with 409 naming the status and the allowed actions, and fires nothing', async () => {
  const id = await newRequest();
  const error = expectApiError(await action(id, 'evaluate', { comment: 'Approved.' }), 409, 'conflict');
  expect(error.message).toMatch(
    /^The information request is pending; evaluate needs the analysis done \(status in_review\) and a responsible reviewer assigned; allowed now: submit, assignments, assignments\/complete/,
  );
  expect(error.issues).toEqual([{ path: '$.status', code: 'status_pending', message: 'allowed now: submit, assignments, assignments/complete' }]);
  expect(eventsOf(id)).toEqual([]);
});

test('analyze before submit is refused, not pending → in_review', async () => {
  const id = await newRequest();
  const error = expectApiError(await action(id, 'analyze'), 409, 'conflict');
  expect(error.message).toContain('analyze needs every item submitted');
  expect(InformationRequest.parse((await t.get(`/api/v2/information_requests/${id}`)).json()).status).toBe('pending');
});

test('evaluate in review without a responsible reviewer is refused, saying to assign one', async () => {
  const id = await newRequest();
  await expectStatus(id, 'submit', {}, 'items_collected');
  await expectStatus(id, 'analyze', {}, 'in_review');
  await expectStatus(id, 'assignments', { reviewer_email: 'rita@client.example.com', role: 'reviewer' }, 'in_review');
  const error = expectApiError(await action(id, 'evaluate', { comment: 'Approved.' }), 409, 'conflict');
  expect(error.message).toContain('responsible');
  expect(error.issues[0]!.message).toBe('allowed now: analyze, assignments, assignments/complete');
});

test('submit after evaluation does not move the status back, and a second evaluate fires no second evaluated event', async () => {
  const id = await newRequest();
  await expectStatus(id, 'submit', {}, 'items_collected');
  await expectStatus(id, 'analyze', { information_sheet: { legal_name: 'Panadería La Espiga SpA' } }, 'in_review');
  await expectStatus(id, 'assignments', { reviewer_email: 'paula@client.example.com', role: 'responsible' }, 'in_review');
  await expectStatus(id, 'evaluate', { comment: 'Approved.' }, 'evaluated');
  for (const [name, body] of [
    ['submit', {}],
    ['analyze', {}],
    ['evaluate', { comment: 'Again.' }],
    ['assignments', { reviewer_email: 'late@client.example.com' }],
  ] as const) {
    const error = expectApiError(await action(id, name, body), 409, 'conflict');
    expect(error.message).toContain('evaluated');
    expect(error.issues[0]!.message).toBe('allowed now: none');
  }
  expect(InformationRequest.parse((await t.get(`/api/v2/information_requests/${id}`)).json()).status).toBe('evaluated');
  expect(eventsOf(id).filter(([type]) => type === 'information_request.evaluated')).toHaveLength(1);
});

test('the three information request events carry the status after the change, as evaluated does, each followed by status_updated', async () => {
  const id = await newRequest();
  await expectStatus(id, 'submit', {}, 'items_collected');
  await expectStatus(id, 'analyze', {}, 'in_review');
  await expectStatus(id, 'analyze', { information_sheet: { again: true } }, 'in_review');
  await expectStatus(id, 'assignments', { reviewer_email: 'paula@client.example.com', role: 'responsible' }, 'in_review');
  await expectStatus(id, 'evaluate', { comment: 'Approved.' }, 'evaluated');
  expect(eventsOf(id)).toEqual([
    ['information_request.all_items_collected', 'items_collected'],
    ['information_request.status_updated', 'items_collected'],
    ['information_request.analysis_success', 'in_review'],
    ['information_request.status_updated', 'in_review'],
    ['information_request.analysis_success', 'in_review'],
    ['information_request.evaluated', 'evaluated'],
    ['information_request.status_updated', 'evaluated'],
  ]);
});
