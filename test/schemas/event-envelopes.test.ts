import { EVENT_EXAMPLES, EVENT_RESOURCE_KEYS, EVENT_SCHEMAS, EVENT_TYPES, WebhookEventBody, parseWith } from '../../src/schemas';

test('the spec has 12 event types, each with its resource key', () => {
  expect(EVENT_TYPES).toHaveLength(12);
  expect(EVENT_RESOURCE_KEYS['data_source_run_batch.child_batches_ready']).toBe('data_source_run_batch');
  expect(EVENT_RESOURCE_KEYS['entity_validation.stakeholder.created']).toBe('stakeholder');
  expect(EVENT_RESOURCE_KEYS['information_request.assignment.updated']).toBe('assignment');
});

test.each(EVENT_TYPES)('%s: the example envelope validates against its own schema and the union', (type) => {
  const body = EVENT_EXAMPLES[type]();
  expect(Object.keys(body).sort()).toEqual(['type', EVENT_RESOURCE_KEYS[type]].sort());
  expect(parseWith(EVENT_SCHEMAS[type], body).ok).toBe(true);
  expect(parseWith(WebhookEventBody, body).ok).toBe(true);
});

test.each(EVENT_TYPES)('%s: an envelope with a second key is refused at that key', (type) => {
  const body = { ...EVENT_EXAMPLES[type](), event_id: 'x' };
  const result = parseWith(WebhookEventBody, body);
  expect(result).toMatchObject({ ok: false, issues: [{ path: '$.event_id', code: 'unknown_field' }] });
});

test.each(EVENT_TYPES)('%s: an envelope without its resource key is refused at that key', (type) => {
  const body: Record<string, unknown> = EVENT_EXAMPLES[type]();
  const key = EVENT_RESOURCE_KEYS[type];
  delete body[key];
  const result = parseWith(WebhookEventBody, body);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain(`$.${key}`);
});

test('an envelope is checked against the schema of its own type', () => {
  // A batch event carrying a run under the batch key: right key, wrong resource.
  const body = { type: 'data_source_run_batch.ready', data_source_run_batch: EVENT_EXAMPLES['data_source_run_batch.data_source_run.ready']().data_source_run };
  const result = parseWith(WebhookEventBody, body);
  expect(result.ok).toBe(false);
  if (!result.ok)
    expect(result.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['$.data_source_run_batch.runs_succeeded', '$.data_source_run_batch.child_batches']),
    );
});

test('an unknown event type is refused at $.type', () => {
  const result = parseWith(WebhookEventBody, { type: 'data_source_run_batch.done', data_source_run_batch: {} });
  expect(result).toMatchObject({ ok: false, issues: [{ path: '$.type' }] });
});

test('a nested problem is reported with its full path', () => {
  const body = EVENT_EXAMPLES['data_source_run_batch.child_batches_ready']();
  body.data_source_run_batch.child_batches[0]!.raised_alerts[0]!.id = 'alert_1';
  const result = parseWith(WebhookEventBody, body);
  expect(result).toMatchObject({ ok: false, issues: [{ path: '$.data_source_run_batch.child_batches[0].raised_alerts[0].id' }] });
});
