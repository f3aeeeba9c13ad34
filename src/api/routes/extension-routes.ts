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
  parseWith,
  z,
} from '../../schemas';
import { problems, unwrap } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { readRoute } from './read-route';

/**
 * Operations the spec refers to without paths (spec §4, "Other operations"),
 * at paths of bvs-mock's choosing, marked `x-bvs-mock-extension` in the
 * document (docs/fidelity.md row 18).
 */
export const extensionRoutes: Route[] = [
  readRoute({
    pattern: '/api/v2/data_source_run_batches/:id',
    operation: 'getDataSourceRunBatch',
    scope: 'validations:read',
    what: 'data source run batch',
    read: (engine, organizationId, id) => engine.getBatch(organizationId, id),
    document: {
      tags: ['Data source runs'],
      summary: 'Read a batch, with a fresh consolidated report URL',
      description: 'Re-fetches a pre-signed consolidated report URL: when the batch has a report, `consolidated_report_url` is signed anew for 24 hours.',
      params: z.strictObject({ id: idOf('dsrb') }),
      answer: { status: 200, description: 'The batch as it stands now.', schema: DataSourceRunBatch, example: exampleDataSourceRunBatch() },
      extension: true,
    },
  }),
  {
    method: 'POST',
    pattern: '/api/v2/data_source_run_batches/:id/consolidated_report',
    operation: 'generateConsolidatedReport',
    access: { kind: 'api', scope: 'validations:write' },
    document: {
      tags: ['Data source runs'],
      summary: 'Generate the consolidated report on demand',
      description:
        "Generates the consolidated report of a main batch now and fires `data_source_run_batch.consolidated_report_ready`. Works after a partner's definitive failure, when the report is not generated automatically (spec §6 rule 4).",
      params: z.strictObject({ id: idOf('dsrb') }),
      answer: {
        status: 202,
        description: 'The batch, with its new consolidated_report_url.',
        schema: DataSourceRunBatch,
        example: exampleDataSourceRunBatch(),
      },
      errors: ['conflict'],
      extension: true,
    },
    handle(context) {
      const id = context.params.id!;
      const { engine } = context.world;
      unwrap(engine.generateConsolidatedReport(context.organizationId, id));
      return jsonResponse(202, engine.getBatch(context.organizationId, id));
    },
  },
  {
    method: 'GET',
    pattern: '/api/v2/entity_validations/:id/formation',
    operation: 'getFormation',
    access: { kind: 'api', scope: 'validations:read' },
    document: {
      tags: ['Entity validations'],
      summary: 'Read the formation, with fresh document and legal report URLs',
      description: 'The latest formation (societary information) of a Chilean registry company, with its pre-signed URLs signed anew for 24 hours.',
      params: z.strictObject({ id: idOf('evl') }),
      answer: { status: 200, description: 'The formation.', schema: Formation, example: exampleFormation() },
      extension: true,
    },
    handle(context) {
      const id = context.params.id!;
      const formation = context.world.engine.getFormation(context.organizationId, id);
      if (!formation) {
        if (!context.world.engine.getValidation(context.organizationId, id)) throw problems.notFound('entity validation', id);
        throw problems.notFound('formation of entity validation', id);
      }
      return jsonResponse(200, formation);
    },
  },
  {
    method: 'POST',
    pattern: '/api/v2/entity_validations/:id/stakeholders',
    operation: 'addStakeholders',
    access: { kind: 'api', scope: 'validations:write' },
    document: {
      tags: ['Entity validations'],
      summary: 'Add stakeholders',
      description: 'Adds related entities to a validation; `entity_validation.stakeholder.created` fires (spec §6, Triggers: "or via API").',
      params: z.strictObject({ id: idOf('evl') }),
      body: { schema: StakeholdersCreateRequest, example: { stakeholders: [{ tin: '15234567-1', category: 'person', name: 'Pedro', surname: 'Lagos' }] } },
      answer: { status: 201, description: 'The validation with its new related entities.', schema: EntityValidation, example: exampleEntityValidation() },
      errors: ['conflict'],
      extension: true,
    },
    handle(context) {
      const id = context.params.id!;
      const body = checkBody(context, (value) => parseWith(StakeholdersCreateRequest, value), context.json());
      const validation = unwrap(context.world.engine.addStakeholders(context.organizationId, id, body.stakeholders));
      return jsonResponse(201, validation);
    },
  },
  readRoute({
    pattern: '/api/v2/information_requests/:id',
    operation: 'getInformationRequest',
    scope: 'validations:read',
    what: 'information request',
    read: (engine, organizationId, id) => engine.getInformationRequest(organizationId, id),
    document: {
      tags: ['Information requests'],
      summary: 'Read an information request',
      description:
        'The information request as its events carry it. Acting as recipient and reviewers is done through the control API (/_mock/information_requests/{id}/...).',
      params: z.strictObject({ id: idOf('irq') }),
      answer: { status: 200, description: 'The information request.', schema: InformationRequest, example: exampleInformationRequest() },
      extension: true,
    },
  }),
];
