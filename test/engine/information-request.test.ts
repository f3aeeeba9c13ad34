import type { InformationRequest } from '../../src/schemas';
import { scenario, startEngine } from '../support/engine-harness';

const ENTITY = {
  tin: '76111111-6',
  country: 'CL',
  category: 'business' as const,
  name: 'Documentos SpA',
  runs: [{ type: 'cl/sii', outcomes: [{ succeeded: '10s' }] }],
};

const SCRIPTED = scenario({
  name: 'scripted-request',
  description: 'An information request played from the script.',
  tins: ['76111111-6'],
  entity: ENTITY,
  information_request: {
    name: 'Onboarding documents',
    always: true,
    items: [
      { name: 'Bank certificate', extract_after: '5s', extracted_data: { bank: 'Banco de Chile' } },
      { name: 'Tax form', kind: 'text', extract_after: '8s' },
    ],
    steps: [
      { after: '30s', submit: 'all' },
      { after: '20s', analyze: { information_sheet: { legal_name: 'Documentos SpA' }, chat: [{ role: 'assistant', content: 'Consistent.' }] } },
      { after: '10s', assign: { reviewer_email: 'ana@client.example.com', role: 'responsible' } },
      { after: '10s', complete_assignment: 'ana@client.example.com' },
      { after: '10s', evaluate: { comment: 'Approved.' } },
    ],
  },
});

const DRIVEN = scenario({ name: 'driven-request', description: 'Driven by hand.', tins: ['76222222-8'], entity: { ...ENTITY, tin: '76222222-8' } });

const requestOf = (body: unknown) => (body as { information_request: InformationRequest }).information_request;

test('a scripted request plays its events in order, with responsible_comment set only by evaluated', () => {
  const harness = startEngine({ scenarios: [SCRIPTED] });
  harness.create({ tin: '76111111-6', country: 'CL' });
  harness.runAll();
  const requestEvents = harness.events.filter((event) => event.type.startsWith('information_request.'));
  expect(requestEvents.map((event) => `${event.emittedAt.slice(11, 19)} ${event.type}`)).toEqual([
    '10:00:30 information_request.all_items_collected',
    '10:00:30 information_request.status_updated',
    '10:00:35 information_request.requestable_item.extracted',
    '10:00:38 information_request.requestable_item.extracted',
    '10:00:50 information_request.analysis_success',
    '10:00:50 information_request.status_updated',
    '10:01:00 information_request.assignment.updated',
    '10:01:10 information_request.assignment.updated',
    '10:01:20 information_request.evaluated',
    '10:01:20 information_request.status_updated',
  ]);
  const withRequest = requestEvents.filter((event) => 'information_request' in event.body);
  expect(withRequest.map((event) => requestOf(event.body).responsible_comment)).toEqual([null, null, null, null, 'Approved.', 'Approved.']);
  // Each event shows the request as it is after the change that caused it (docs/fidelity.md row 71).
  expect(withRequest.map((event) => requestOf(event.body).status)).toEqual([
    'items_collected',
    'items_collected',
    'in_review',
    'in_review',
    'evaluated',
    'evaluated',
  ]);
});

test('the main batch names the request, and the request carries that batch', () => {
  const harness = startEngine({ scenarios: [SCRIPTED] });
  const id = harness.create({ tin: '76111111-6', country: 'CL' });
  const validation = harness.engine.getValidation('acme', id)!;
  const requestId = validation.information_requests[0]!.id;
  expect(validation.data_source_run_batches[0]!.information_request_id).toBe(requestId);
  const request = harness.engine.getInformationRequest('acme', requestId)!;
  expect(request.data_source_run_batch.id).toBe(validation.data_source_run_batches[0]!.id);
  expect(request.template_id).toBe('irt_default');
  expect(request.recipient_url).toBe(`https://127.0.0.1:4010/_mock/recipient/${requestId}`);
});

test("the create call's template and webhook_url are used, and request events go to that webhook_url", () => {
  const harness = startEngine({ scenarios: [DRIVEN] });
  const id = harness.create({
    tin: '76222222-8',
    country: 'CL',
    webhook_url: 'https://client.example.com/validations',
    information_request: { template_id: 'irt_kyc', webhook_url: 'https://client.example.com/requests' },
  });
  const requestId = harness.engine.getValidation('acme', id)!.information_requests[0]!.id;
  const flow = harness.engine.informationRequestFlow('acme', requestId);
  if (!flow.ok) throw new Error(flow.message);
  expect(flow.value.submit('all').ok).toBe(true);
  harness.runAll();
  const routes = new Set(harness.events.map((event) => `${event.type.split('.')[0]} -> ${event.legacyWebhookUrl}`));
  expect(routes).toEqual(
    new Set(['information_request -> https://client.example.com/requests', 'data_source_run_batch -> https://client.example.com/validations']),
  );
  expect(harness.engine.getInformationRequest('acme', requestId)).toMatchObject({
    template_id: 'irt_kyc',
    webhook: { webhook_url: 'https://client.example.com/requests' },
  });
});

test('driven actions refuse what cannot happen, with what to do', () => {
  const harness = startEngine({ scenarios: [DRIVEN] });
  const id = harness.create({ tin: '76222222-8', country: 'CL', information_request: { template_id: 'irt_kyc' } });
  const requestId = harness.engine.getValidation('acme', id)!.information_requests[0]!.id;
  const flow = harness.engine.informationRequestFlow('acme', requestId);
  if (!flow.ok) throw new Error(flow.message);
  expect(flow.value.submit(['Passport'])).toMatchObject({ ok: false, code: 'not_found', message: expect.stringContaining('"Company deed"') });
  expect(flow.value.submit(['Company deed']).ok).toBe(true);
  expect(flow.value.submit(['Company deed'])).toMatchObject({ ok: false, code: 'conflict' });
  expect(flow.value.completeAssignment('nobody@client.example.com')).toMatchObject({ ok: false, code: 'not_found' });
  expect(flow.value.assign({ reviewer_email: 'ana@client.example.com', role: 'responsible' }).ok).toBe(true);
  expect(flow.value.assign({ reviewer_email: 'ana@client.example.com', role: 'reviewer' })).toMatchObject({ ok: false, code: 'conflict' });
  expect(flow.value.evaluate('Too early.')).toMatchObject({ ok: false, code: 'conflict', message: expect.stringContaining('items_collected') });
  expect(flow.value.analyze({ information_sheet: {}, chat: [] }).ok).toBe(true);
  expect(flow.value.evaluate('Fine.').ok).toBe(true);
  expect(flow.value.evaluate('Again.')).toMatchObject({ ok: false, code: 'conflict' });
  expect(harness.engine.informationRequestFlow('globex', requestId)).toMatchObject({ ok: false, code: 'not_found' });
});

test('no request is created when neither the call nor the scenario asks for one', () => {
  const harness = startEngine({ scenarios: [DRIVEN] });
  const id = harness.create({ tin: '76222222-8', country: 'CL' });
  expect(harness.engine.getValidation('acme', id)!.information_requests).toEqual([]);
  expect(harness.engine.getValidation('acme', id)!.data_source_run_batches[0]!.information_request_id).toBeNull();
});
