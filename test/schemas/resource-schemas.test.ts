import type { ZodType } from 'zod';
import {
  ApiError,
  Assignment,
  DataSourceRun,
  DataSourceRunBatch,
  DataSourceRunRecords,
  EntityValidation,
  Formation,
  InformationRequest,
  LatestDataSourceRun,
  LegacyWebhook,
  OAuthTokenResponse,
  RaisedAlert,
  RequestableItem,
  WebhookEndpoint,
  WebhookEndpointList,
  exampleApiError,
  exampleAssignment,
  exampleDataSourceRun,
  exampleDataSourceRunBatch,
  exampleEntityValidation,
  exampleFormation,
  exampleInformationRequest,
  exampleLatestDataSourceRun,
  exampleOAuthTokenResponse,
  exampleRaisedAlert,
  exampleRecords,
  exampleRequestableItem,
  exampleWebhookEndpoint,
  parseWith,
} from '../../src/schemas';

type Json = Record<string, any>;

/** One way to break an example, and the JSON path the error must name. */
interface Breakage {
  what: string;
  change: (body: Json) => void;
  path: string;
}

interface Case {
  name: string;
  schema: ZodType;
  example: () => unknown;
  breakages: Breakage[];
}

const legacyWebhook = () => ({ id: 'wbh_01JD5ZY0A1B2', webhook_url: 'https://client.example.com/hooks', created_at: '2026-01-15T10:00:00.000Z' });

const CASES: Case[] = [
  {
    name: 'RaisedAlert',
    schema: RaisedAlert,
    example: exampleRaisedAlert,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.id = 'dsr_01JD'), path: '$.id' },
      { what: 'missing field', change: (b) => delete b.data_source_run_batch_id, path: '$.data_source_run_batch_id' },
      { what: 'empty open value', change: (b) => (b.severity = ''), path: '$.severity' },
      { what: 'unknown field', change: (b) => (b.level = 3), path: '$.level' },
    ],
  },
  {
    name: 'DataSourceRun',
    schema: DataSourceRun,
    example: exampleDataSourceRun,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.data_source_run_batch_id = 'dsr_01JD'), path: '$.data_source_run_batch_id' },
      { what: 'missing field', change: (b) => delete b.status, path: '$.status' },
      { what: 'wrong enum', change: (b) => (b.status = 'failed'), path: '$.status' },
      { what: 'bad timestamp', change: (b) => (b.created_at = '2026-01-15T10:00:00Z'), path: '$.created_at' },
      { what: 'bad type', change: (b) => (b.type = 'CL-SII'), path: '$.type' },
    ],
  },
  {
    name: 'LatestDataSourceRun',
    schema: LatestDataSourceRun,
    example: exampleLatestDataSourceRun,
    breakages: [
      { what: 'missing data', change: (b) => delete b.data, path: '$.data' },
      { what: 'negative count', change: (b) => (b.data.sii.count = -1), path: '$.data.sii.count' },
      { what: 'absolute records_url', change: (b) => (b.data.sii.records_url = 'records'), path: '$.data.sii.records_url' },
    ],
  },
  {
    name: 'DataSourceRunBatch',
    schema: DataSourceRunBatch,
    example: exampleDataSourceRunBatch,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.id = 'dsr_01JD'), path: '$.id' },
      { what: 'wrong prefix in a child', change: (b) => (b.child_batches[0].parent_batch_id = 'evl_01JD'), path: '$.child_batches[0].parent_batch_id' },
      { what: 'missing field in a child', change: (b) => delete b.child_batches[0].runs_succeeded, path: '$.child_batches[0].runs_succeeded' },
      { what: 'non-string open value', change: (b) => (b.execution_type = 7), path: '$.execution_type' },
      { what: 'undefined instead of null', change: (b) => delete b.parent_batch_id, path: '$.parent_batch_id' },
      { what: 'bad timestamp', change: (b) => (b.updated_at = '2026-01-15 10:00:00.000'), path: '$.updated_at' },
      { what: 'bad alert in a run summary', change: (b) => (b.data_source_runs[1].status = 'done'), path: '$.data_source_runs[1].status' },
    ],
  },
  {
    name: 'EntityValidation',
    schema: EntityValidation,
    example: exampleEntityValidation,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.id = 'irq_01JD'), path: '$.id' },
      { what: 'missing field', change: (b) => delete b.related_entities, path: '$.related_entities' },
      { what: 'empty open value', change: (b) => (b.category = ''), path: '$.category' },
      { what: 'bad country', change: (b) => (b.country = 'cl'), path: '$.country' },
      { what: 'bad risk level', change: (b) => (b.related_entities[0].risk_level = 'extreme'), path: '$.related_entities[0].risk_level' },
      { what: 'bad timestamp', change: (b) => (b.created_at = '2026-01-15T10:00:00.000+01:00'), path: '$.created_at' },
      {
        what: 'http legacy webhook',
        change: (b) => (b.webhook = { ...legacyWebhook(), webhook_url: 'http://client.example.com/hooks' }),
        path: '$.webhook.webhook_url',
      },
    ],
  },
  {
    name: 'Formation',
    schema: Formation,
    example: exampleFormation,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.documents[0].id = 'bbs_01JD'), path: '$.documents[0].id' },
      { what: 'missing field', change: (b) => delete b.equity.currency, path: '$.equity.currency' },
      { what: 'wrong enum', change: (b) => (b.stakeholders[0].roles = ['owner']), path: '$.stakeholders[0].roles[0]' },
      { what: 'participation over 1', change: (b) => (b.stakeholders[0].participation = 1.5), path: '$.stakeholders[0].participation' },
      { what: 'bad timestamp', change: (b) => (b.constitution_date = '2019-03-04'), path: '$.constitution_date' },
      { what: 'missing faculty flag', change: (b) => delete b.stakeholders[0].faculties[1].present, path: '$.stakeholders[0].faculties[1].present' },
    ],
  },
  {
    name: 'InformationRequest',
    schema: InformationRequest,
    example: exampleInformationRequest,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.template_id = 'irq_01JD'), path: '$.template_id' },
      { what: 'missing responsible_comment', change: (b) => delete b.responsible_comment, path: '$.responsible_comment' },
      { what: 'empty open value', change: (b) => (b.status = ''), path: '$.status' },
      { what: 'bad nested batch', change: (b) => (b.data_source_run_batch.request_type = null), path: '$.data_source_run_batch.request_type' },
    ],
  },
  {
    name: 'RequestableItem',
    schema: RequestableItem,
    example: exampleRequestableItem,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.information_request_id = 'irt_01JD'), path: '$.information_request_id' },
      { what: 'wrong enum', change: (b) => (b.status = 'lost'), path: '$.status' },
    ],
  },
  {
    name: 'Assignment',
    schema: Assignment,
    example: exampleAssignment,
    breakages: [
      { what: 'bad e-mail', change: (b) => (b.reviewer_email = 'reviewer'), path: '$.reviewer_email' },
      { what: 'bad timestamp', change: (b) => (b.updated_at = 'yesterday'), path: '$.updated_at' },
    ],
  },
  {
    name: 'WebhookEndpoint',
    schema: WebhookEndpoint,
    example: exampleWebhookEndpoint,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.id = 'wbh_01JD'), path: '$.id' },
      { what: 'unknown event type', change: (b) => (b.subscribed_events = ['batch.ready']), path: '$.subscribed_events[0]' },
      { what: 'wrong auth type', change: (b) => (b.auth_type = 'basic'), path: '$.auth_type' },
      { what: 'non-http url', change: (b) => (b.url = 'ftp://client.example.com'), path: '$.url' },
    ],
  },
  {
    name: 'WebhookEndpointList',
    schema: WebhookEndpointList,
    example: () => ({ webhook_endpoints: [exampleWebhookEndpoint()] }),
    breakages: [{ what: 'missing field in an item', change: (b) => delete b.webhook_endpoints[0].enabled, path: '$.webhook_endpoints[0].enabled' }],
  },
  {
    name: 'LegacyWebhook',
    schema: LegacyWebhook,
    example: legacyWebhook,
    breakages: [
      { what: 'wrong prefix', change: (b) => (b.id = 'whe_01JD'), path: '$.id' },
      { what: 'plain http', change: (b) => (b.webhook_url = 'http://client.example.com/hooks'), path: '$.webhook_url' },
    ],
  },
  {
    name: 'OAuthTokenResponse',
    schema: OAuthTokenResponse,
    example: exampleOAuthTokenResponse,
    breakages: [
      { what: 'wrong token type', change: (b) => (b.token_type = 'bearer'), path: '$.token_type' },
      { what: 'created_at as a timestamp string', change: (b) => (b.created_at = '2026-01-15T10:00:00.000Z'), path: '$.created_at' },
    ],
  },
  {
    name: 'DataSourceRunRecords',
    schema: DataSourceRunRecords,
    example: exampleRecords,
    breakages: [{ what: 'wrong prefix', change: (b) => (b.data_source_run_id = 'dsrb_01JD'), path: '$.data_source_run_id' }],
  },
  {
    name: 'Error',
    schema: ApiError,
    example: exampleApiError,
    breakages: [
      { what: 'unknown code', change: (b) => (b.error.code = 'oops'), path: '$.error.code' },
      { what: 'missing issues', change: (b) => delete b.error.issues, path: '$.error.issues' },
    ],
  },
];

test.each(CASES)('$name accepts its realistic example', ({ schema, example }) => {
  expect(parseWith(schema, example())).toEqual({ ok: true, value: example() });
});

const BREAKAGES = CASES.flatMap(({ name, schema, example, breakages }) => breakages.map((breakage) => ({ name, schema, example, ...breakage })));

test.each(BREAKAGES)('$name rejects $what, naming $path', ({ schema, example, change, path }) => {
  const body = example() as Json;
  change(body);
  const result = parseWith(schema, body);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.issues.map((issue) => issue.path)).toContain(path);
  for (const issue of result.issues) expect(issue.message.length).toBeGreaterThan(5);
});

// "values seen" (spec §2): what the service sends may carry values the spec does not list (docs/fidelity.md row 89).
const OPEN_VALUES: Array<[string, ZodType, () => unknown, (body: Json) => void]> = [
  ['RaisedAlert severity', RaisedAlert, exampleRaisedAlert, (b) => void (b.severity = 'informational')],
  ['DataSourceRunBatch execution_type', DataSourceRunBatch, exampleDataSourceRunBatch, (b) => void (b.execution_type = 'indirect')],
  ['DataSourceRunBatch request_type', DataSourceRunBatch, exampleDataSourceRunBatch, (b) => void (b.request_type = 'priority')],
  ['EntityValidation category', EntityValidation, exampleEntityValidation, (b) => void (b.category = 'trust')],
  ['EntityValidation status', EntityValidation, exampleEntityValidation, (b) => void (b.status = 'in_progress')],
  ['InformationRequest status', InformationRequest, exampleInformationRequest, (b) => void (b.status = 'archived')],
];

test.each(OPEN_VALUES)('%s accepts a value the spec does not list, where it lists the values seen', (_name, schema, example, change) => {
  const body = structuredClone(example()) as Json;
  change(body);
  expect(schema.safeParse(body).success).toBe(true);
});
