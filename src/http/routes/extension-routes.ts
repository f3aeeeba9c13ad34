import { StakeholdersCreateRequest, parseWith } from '../../schemas';
import { ApiProblem, problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { readRoute } from './read-route';
import type { ActionResult } from '../../engine';

/** Turns an engine refusal into the API's answer, keeping the engine's sentence (it names what is missing). */
export function unwrap<T>(result: ActionResult<T>): T {
  if (result.ok) return result.value;
  const message = result.message.endsWith('.') ? result.message : `${result.message}.`;
  throw new ApiProblem(result.code === 'not_found' ? 'not_found' : 'conflict', message);
}

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
  }),
  {
    method: 'POST',
    pattern: '/api/v2/data_source_run_batches/:id/consolidated_report',
    operation: 'generateConsolidatedReport',
    access: { kind: 'api', scope: 'validations:write' },
    handle(context) {
      const id = context.params.id!;
      const { engine } = context.services;
      unwrap(engine.generateConsolidatedReport(context.organizationId, id));
      return jsonResponse(202, engine.getBatch(context.organizationId, id));
    },
  },
  {
    method: 'GET',
    pattern: '/api/v2/entity_validations/:id/formation',
    operation: 'getFormation',
    access: { kind: 'api', scope: 'validations:read' },
    handle(context) {
      const id = context.params.id!;
      const formation = context.services.engine.getFormation(context.organizationId, id);
      if (!formation) {
        if (!context.services.engine.getValidation(context.organizationId, id)) throw problems.notFound('entity validation', id);
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
    handle(context) {
      const id = context.params.id!;
      const body = checkBody(context, (value) => parseWith(StakeholdersCreateRequest, value), context.json());
      const validation = unwrap(context.services.engine.addStakeholders(context.organizationId, id, body.stakeholders));
      return jsonResponse(201, validation);
    },
  },
  readRoute({
    pattern: '/api/v2/information_requests/:id',
    operation: 'getInformationRequest',
    scope: 'validations:read',
    what: 'information request',
    read: (engine, organizationId, id) => engine.getInformationRequest(organizationId, id),
  }),
];
