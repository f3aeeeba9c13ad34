import type { ApiError } from './api-error';
import { makeRunData, type DataSourceRun, type DataSourceRunRecords, type LatestDataSourceRun } from './data-source-run';
import type { DataSourceRunBatch } from './data-source-run-batch';
import type { EntityValidation } from './entity-validation';
import { EntityValidationCreateFields, type EntityValidationCreateRequest } from './entity-validation-create';
import { describeProblems, parseWith } from './parse-result';
import type { EventType } from './event-types';
import type { WebhookEvent } from './events';
import type { Formation } from './formation';
import type { Assignment, InformationRequest, RequestableItem } from './information-request';
import type { OAuthTokenResponse } from './oauth';
import type { RaisedAlert } from './raised-alert';
import type { WebhookEndpoint } from './webhook-endpoint';

/**
 * Realistic examples of every body of the contract, built from the spec's
 * tables: a Chilean company (Comercial Andes SpA) with one partner. They appear
 * in the OpenAPI document and every one is checked against its schema in tests.
 * Each call returns a fresh object, so callers may change it.
 */
const EVL = 'evl_01JD5ZQ8K3M7T2XW9Y4B6C1N0P';
const PARTNER_EVL = 'evl_01JD5ZQ9A1B2C3D4E5F6G7H8J9';
const BATCH = 'dsrb_01JD5ZQ8M0N1P2Q3R4S5T6V7W8';
const PARTNER_BATCH = 'dsrb_01JD5ZR2X3Y4Z5A6B7C8D9E0F1';
const RUN_SII = 'dsr_01JD5ZQ8P1Q2R3S4T5V6W7X8Y9';
const RUN_REGISTRY = 'dsr_01JD5ZQ8Q2R3S4T5V6W7X8Y9Z0';
const RUN_PEP = 'dsr_01JD5ZR3A4B5C6D7E8F9G0H1J2';
const IRQ = 'irq_01JD5ZQ8R3S4T5V6W7X8Y9Z0A1';
const T0 = '2026-01-15T10:00:00.000Z';

export function exampleRaisedAlert(): RaisedAlert {
  return { id: 'rlal_01JD5ZS0A1B2C3D4E5F6G7H8J9', name: 'Tax debt', severity: 'medium', entity_validation_id: EVL, data_source_run_batch_id: BATCH };
}

export function examplePartnerAlert(): RaisedAlert {
  return {
    id: 'rlal_01JD5ZS1B2C3D4E5F6G7H8J9K0',
    name: 'Politically exposed person',
    severity: 'high',
    entity_validation_id: PARTNER_EVL,
    data_source_run_batch_id: PARTNER_BATCH,
  };
}

export function exampleDataSourceRun(): DataSourceRun {
  return {
    id: RUN_SII,
    type: 'cl/sii',
    entity_validation_id: EVL,
    data_source_run_batch_id: BATCH,
    created_at: T0,
    succeeded_at: '2026-01-15T10:00:20.000Z',
    status: 'succeeded',
  };
}

export function exampleLatestDataSourceRun(): LatestDataSourceRun {
  return { ...exampleDataSourceRun(), data: makeRunData(RUN_SII, 'sii', { count: 2, records_url: `/api/v2/data_source_runs/${RUN_SII}/records` }) };
}

export function examplePartnerBatch(): DataSourceRunBatch {
  return {
    id: PARTNER_BATCH,
    runs_succeeded: true,
    entity_validation_id: PARTNER_EVL,
    tin: '12345678-5',
    information_request_id: null,
    parent_batch_id: BATCH,
    execution_type: 'related',
    request_type: 'normal',
    created_at: '2026-01-15T10:00:45.000Z',
    updated_at: '2026-01-15T10:01:25.000Z',
    consolidated_report_url: null,
    data_source_runs: [{ id: RUN_PEP, type: 'cl/pep', status: 'succeeded', created_at: '2026-01-15T10:00:45.000Z', succeeded_at: '2026-01-15T10:01:25.000Z' }],
    raised_alerts: [examplePartnerAlert()],
    child_batches: [],
    webhook: null,
  };
}

export function exampleDataSourceRunBatch(): DataSourceRunBatch {
  return {
    id: BATCH,
    runs_succeeded: true,
    entity_validation_id: EVL,
    tin: '76086428-5',
    information_request_id: null,
    parent_batch_id: null,
    execution_type: 'direct',
    request_type: 'normal',
    created_at: T0,
    updated_at: '2026-01-15T10:01:25.000Z',
    consolidated_report_url: `https://127.0.0.1:4010/_mock/files/reports/${BATCH}.pdf?expires=1768557685&signature=5f1c0a9e`,
    data_source_runs: [
      { id: RUN_SII, type: 'cl/sii', status: 'succeeded', created_at: T0, succeeded_at: '2026-01-15T10:00:20.000Z' },
      { id: RUN_REGISTRY, type: 'cl/registry', status: 'succeeded', created_at: T0, succeeded_at: '2026-01-15T10:00:45.000Z' },
    ],
    raised_alerts: [exampleRaisedAlert()],
    child_batches: [examplePartnerBatch()],
    webhook: null,
  };
}

export function exampleEntityValidation(): EntityValidation {
  return {
    id: EVL,
    tin: '76086428-5',
    display_name: 'Comercial Andes SpA',
    name: 'Comercial Andes SpA',
    surname: '',
    category: 'business',
    country: 'CL',
    status: 'created',
    created_at: T0,
    information_requests: [{ id: IRQ, name: 'Onboarding documents', created_at: T0, recipient_url: `https://127.0.0.1:4010/_mock/recipient/${IRQ}` }],
    data_source_run_batches: [exampleDataSourceRunBatch()],
    related_entities: [
      { id: PARTNER_EVL, tin: '12345678-5', country: 'CL', display_name: 'Ana Rojas', name: 'Ana', surname: 'Rojas', category: 'person', risk_level: 'high' },
    ],
    latest_raised_alerts: [exampleRaisedAlert()],
    latest_data_source_runs: [exampleLatestDataSourceRun()],
    webhook: null,
  };
}

export function exampleFormation(): Formation {
  return {
    entity_validation_id: EVL,
    data_source_run_batch_id: BATCH,
    tin: '76086428-5',
    name: 'Comercial Andes SpA',
    fantasy_name: 'Andes',
    country: 'CL',
    source: 'constitution',
    company_type: 'Sociedad por Acciones',
    constitution_date: '2019-03-04T00:00:00.000Z',
    registry: 'Registro de Empresas y Sociedades',
    duration: 'indefinite',
    activity_description: 'Wholesale of food products',
    requires_manual_review: false,
    manual_review_codes: [],
    administration: { administration_type: 'general_manager', simple_signature: true },
    equity: { total_amount: 10000000, total_shares: 1000, currency: 'CLP', shares_type: 'ordinary' },
    stakeholders: [
      {
        entity_validation_id: PARTNER_EVL,
        display_name: 'Ana Rojas',
        tin: '12345678-5',
        category: 'person',
        roles: ['shareholder', 'general_manager'],
        ubo: true,
        participation: 1,
        shares: 1000,
        amount: 10000000,
        faculties: [
          { key: 'open_bank_accounts', code: 'F01', present: true },
          { key: 'sign_contracts', code: 'F02', present: true },
        ],
      },
    ],
    documents: [
      {
        id: 'doc_01JD5ZT0A1B2C3D4E5F6G7H8J9',
        name: 'constitution.pdf',
        label: 'Constitution deed',
        source: 'constitution',
        cve: 'CVE-2019-0304-AB12',
        url: 'https://127.0.0.1:4010/_mock/files/documents/doc_01JD5ZT0A1B2C3D4E5F6G7H8J9.pdf?expires=1768557685&signature=0b7e44d2',
        created_at: '2026-01-15T10:00:50.000Z',
      },
    ],
    legal_report_url: `https://127.0.0.1:4010/_mock/files/legal_reports/${EVL}.pdf?expires=1768557685&signature=a41c9d03`,
  };
}

export function exampleRequestableItem(): RequestableItem {
  return {
    id: 'rqi_01JD5ZU0A1B2C3D4E5F6G7H8J9',
    information_request_id: IRQ,
    name: 'Bank certificate',
    kind: 'document',
    status: 'extracted',
    document_id: 'doc_01JD5ZU1B2C3D4E5F6G7H8J9K0',
    extracted_data: { bank: 'Banco de Chile', account_holder: 'Comercial Andes SpA' },
    created_at: T0,
    updated_at: '2026-01-15T10:05:00.000Z',
  };
}

export function exampleAssignment(): Assignment {
  return {
    id: 'asg_01JD5ZV0A1B2C3D4E5F6G7H8J9',
    information_request_id: IRQ,
    reviewer_email: 'reviewer@client.example.com',
    role: 'reviewer',
    status: 'in_progress',
    created_at: '2026-01-15T10:06:00.000Z',
    updated_at: '2026-01-15T10:07:00.000Z',
  };
}

export function exampleInformationRequest(): InformationRequest {
  return {
    id: IRQ,
    name: 'Onboarding documents',
    status: 'pending',
    entity_validation_id: EVL,
    template_id: 'irt_01JD5ZW0A1B2C3D4E5F6G7H8J9',
    recipient_url: `https://127.0.0.1:4010/_mock/recipient/${IRQ}`,
    consolidated_report_url: null,
    responsible_comment: null,
    requestable_items: [exampleRequestableItem()],
    data_source_run_batch: { ...exampleDataSourceRunBatch(), information_request_id: IRQ },
    assignments: [exampleAssignment()],
    information_sheet: null,
    analysis_chat: [],
    webhook: null,
  };
}

export function exampleWebhookEndpoint(): WebhookEndpoint {
  return {
    id: 'whe_01JD5ZX0A1B2C3D4E5F6G7H8J9',
    name: 'ci',
    url: 'https://client.example.com/bvs/webhooks',
    enabled: true,
    subscribed_events: ['data_source_run_batch.ready', 'data_source_run_batch.child_batches_ready'],
    auth_type: 'secret',
    created_at: T0,
    updated_at: T0,
  };
}

export function exampleOAuthTokenResponse(): OAuthTokenResponse {
  return {
    access_token: 'at_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    token_type: 'Bearer',
    expires_in: 7200,
    scope: 'validations:read validations:write',
    created_at: 1768471200,
  };
}

export function exampleCreateRequest(): EntityValidationCreateRequest {
  return { tin: '76086428-5', country: 'CL', contact_email: 'compliance@client.example.com' };
}

export function exampleRecords(): DataSourceRunRecords {
  return {
    data_source_run_id: RUN_SII,
    type: 'cl/sii',
    count: 2,
    records: [
      { activity_code: '463020', activity: 'Wholesale of food products', start_date: '2019-03-04' },
      { tax_debt: true, amount: 1250000, currency: 'CLP' },
    ],
  };
}

/** The answer to a create call with `country: "cl"`, as bvs-mock gives it (the issues come from the schema itself). */
export function exampleApiError(): ApiError {
  const result = parseWith(EntityValidationCreateFields, { tin: '76086428-5', country: 'cl' });
  const issues = result.ok ? [] : result.issues;
  return { error: { code: 'validation_failed', message: describeProblems(issues), status: 422, request_id: 'req_000042', issues } };
}

/** One example body per event type. */
export const EVENT_EXAMPLES: { [T in EventType]: () => WebhookEvent<T> } = {
  'entity_validation.stakeholder.created': () => ({ type: 'entity_validation.stakeholder.created', stakeholder: exampleEntityValidation() }),
  'entity_validation.formation.ready': () => ({ type: 'entity_validation.formation.ready', formation: exampleFormation() }),
  'data_source_run_batch.ready': () => ({ type: 'data_source_run_batch.ready', data_source_run_batch: exampleDataSourceRunBatch() }),
  'data_source_run_batch.consolidated_report_ready': () => ({
    type: 'data_source_run_batch.consolidated_report_ready',
    data_source_run_batch: exampleDataSourceRunBatch(),
  }),
  'data_source_run_batch.child_batches_ready': () => ({
    type: 'data_source_run_batch.child_batches_ready',
    data_source_run_batch: exampleDataSourceRunBatch(),
  }),
  'data_source_run_batch.data_source_run.ready': () => ({ type: 'data_source_run_batch.data_source_run.ready', data_source_run: exampleDataSourceRun() }),
  'information_request.all_items_collected': () => ({ type: 'information_request.all_items_collected', information_request: exampleInformationRequest() }),
  'information_request.analysis_success': () => ({
    type: 'information_request.analysis_success',
    information_request: {
      ...exampleInformationRequest(),
      status: 'in_review',
      information_sheet: { legal_name: 'Comercial Andes SpA' },
      analysis_chat: [{ role: 'assistant', content: 'All documents are consistent with the registry.', created_at: '2026-01-15T10:06:00.000Z' }],
    },
  }),
  'information_request.status_updated': () => ({
    type: 'information_request.status_updated',
    information_request: { ...exampleInformationRequest(), status: 'items_collected' },
  }),
  'information_request.evaluated': () => ({
    type: 'information_request.evaluated',
    information_request: { ...exampleInformationRequest(), status: 'evaluated', responsible_comment: 'Approved: documents match the registry.' },
  }),
  'information_request.requestable_item.extracted': () => ({
    type: 'information_request.requestable_item.extracted',
    requestable_item: exampleRequestableItem(),
  }),
  'information_request.assignment.updated': () => ({ type: 'information_request.assignment.updated', assignment: exampleAssignment() }),
};
