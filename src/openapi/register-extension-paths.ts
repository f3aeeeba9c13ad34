import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  DataSourceRunBatch,
  EntityValidation,
  Formation,
  InformationRequest,
  StakeholdersCreateRequest,
  exampleDataSourceRunBatch,
  exampleEntityValidation,
  exampleFormation,
  exampleInformationRequest,
  idOf,
  z,
} from '../schemas';
import { AUTHENTICATED_ERRORS, errorResponses } from './error-responses';
import { requires } from './security';

/** Marks an operation the spec refers to without a path: its path and shape are bvs-mock's choice. */
const EXTENSION = { 'x-bvs-mock-extension': true } as const;
const NOTE = 'The spec refers to this operation without giving its path or shape; this is bvs-mock\'s choice (docs/fidelity.md row 18).';

const json = <T>(schema: T, example: unknown) => ({ 'application/json': { schema, example } });

/** Registers the operations of spec §4 "Other operations", marked `x-bvs-mock-extension: true`. */
export function registerExtensionPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/v2/data_source_run_batches/{id}',
    operationId: 'getDataSourceRunBatch',
    tags: ['Data source runs'],
    summary: 'Read a batch, with a fresh consolidated report URL',
    description: `Re-fetches a pre-signed consolidated report URL: when the batch has a report, \`consolidated_report_url\` is signed anew for 24 hours. ${NOTE}`,
    security: requires('validations:read'),
    request: { params: z.strictObject({ id: idOf('dsrb') }) },
    responses: {
      200: { description: 'The batch as it stands now.', content: json(DataSourceRunBatch, exampleDataSourceRunBatch()) },
      ...errorResponses([...AUTHENTICATED_ERRORS, 'not_found']),
    },
    ...EXTENSION,
  });

  registry.registerPath({
    method: 'post',
    path: '/api/v2/data_source_run_batches/{id}/consolidated_report',
    operationId: 'generateConsolidatedReport',
    tags: ['Data source runs'],
    summary: 'Generate the consolidated report on demand',
    description: `Generates the consolidated report of a main batch now and fires \`data_source_run_batch.consolidated_report_ready\`. Works after a partner's definitive failure, when the report is not generated automatically (spec §6 rule 4). ${NOTE}`,
    security: requires('validations:write'),
    request: { params: z.strictObject({ id: idOf('dsrb') }) },
    responses: {
      202: { description: 'The batch, with its new consolidated_report_url.', content: json(DataSourceRunBatch, exampleDataSourceRunBatch()) },
      ...errorResponses([...AUTHENTICATED_ERRORS, 'not_found', 'conflict']),
    },
    ...EXTENSION,
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v2/entity_validations/{id}/formation',
    operationId: 'getFormation',
    tags: ['Entity validations'],
    summary: 'Read the formation, with fresh document and legal report URLs',
    description: `The latest formation (societary information) of a Chilean registry company, with its pre-signed URLs signed anew for 24 hours. ${NOTE}`,
    security: requires('validations:read'),
    request: { params: z.strictObject({ id: idOf('evl') }) },
    responses: {
      200: { description: 'The formation.', content: json(Formation, exampleFormation()) },
      ...errorResponses([...AUTHENTICATED_ERRORS, 'not_found']),
    },
    ...EXTENSION,
  });

  registry.registerPath({
    method: 'post',
    path: '/api/v2/entity_validations/{id}/stakeholders',
    operationId: 'addStakeholders',
    tags: ['Entity validations'],
    summary: 'Add stakeholders',
    description: `Adds related entities to a validation; \`entity_validation.stakeholder.created\` fires (spec §6, Triggers: "or via API"). ${NOTE}`,
    security: requires('validations:write'),
    request: {
      params: z.strictObject({ id: idOf('evl') }),
      body: { required: true, content: json(StakeholdersCreateRequest, { stakeholders: [{ tin: '15234567-1', category: 'person', name: 'Pedro', surname: 'Lagos' }] }) },
    },
    responses: {
      201: { description: 'The validation with its new related entities.', content: json(EntityValidation, exampleEntityValidation()) },
      ...errorResponses([...AUTHENTICATED_ERRORS, 'not_found', 'conflict', 'malformed_json', 'payload_too_large', 'unsupported_media_type', 'validation_failed']),
    },
    ...EXTENSION,
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v2/information_requests/{id}',
    operationId: 'getInformationRequest',
    tags: ['Information requests'],
    summary: 'Read an information request',
    description: `The information request as its events carry it. ${NOTE} Acting as recipient and reviewers is done through the control API (/_mock/information_requests/{id}/...).`,
    security: requires('validations:read'),
    request: { params: z.strictObject({ id: idOf('irq') }) },
    responses: {
      200: { description: 'The information request.', content: json(InformationRequest, exampleInformationRequest()) },
      ...errorResponses([...AUTHENTICATED_ERRORS, 'not_found']),
    },
    ...EXTENSION,
  });
}
