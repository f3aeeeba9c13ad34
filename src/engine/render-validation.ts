import type { EntityValidation, RelatedEntity } from '../schemas';
import { OrganizationState } from './organization-state';
import { renderAlert, renderBatch, renderLatestRun } from './render-batch';
import type { ValidationRecord } from './records';

const { must } = OrganizationState;

/** A related entity with its full identity (spec §4, GET entity validation). */
function renderRelatedEntity(validation: ValidationRecord): RelatedEntity {
  return {
    id: validation.id,
    tin: validation.tin,
    country: validation.country,
    display_name: validation.displayName,
    name: validation.name,
    surname: validation.surname,
    category: validation.category,
    risk_level: validation.riskLevel,
  };
}

/**
 * An entity validation as it stands now: every batch (oldest first), the
 * related entities discovered so far, and the alerts and runs of its latest
 * batch (docs/fidelity.md row 35).
 */
export function renderValidation(state: OrganizationState, validation: ValidationRecord, readAt?: number): EntityValidation {
  const latestBatchId = validation.batchIds[validation.batchIds.length - 1];
  const latest = latestBatchId === undefined ? undefined : must(state.batches, latestBatchId);
  return {
    id: validation.id,
    tin: validation.tin,
    display_name: validation.displayName,
    name: validation.name,
    surname: validation.surname,
    category: validation.category,
    country: validation.country,
    status: 'created',
    created_at: validation.createdAt,
    information_requests: validation.informationRequestIds.map((id) => {
      const request = must(state.informationRequests, id);
      return { id: request.id, name: request.name, created_at: request.createdAt, recipient_url: request.recipientUrl };
    }),
    data_source_run_batches: validation.batchIds.map((id) => renderBatch(state, must(state.batches, id), undefined, readAt)),
    related_entities: validation.relatedEntityIds.map((id) => renderRelatedEntity(must(state.validations, id))),
    latest_raised_alerts: latest ? latest.alertIds.map((id) => renderAlert(must(state.alerts, id))) : [],
    latest_data_source_runs: latest ? latest.runIds.map((id) => renderLatestRun(must(state.runs, id))) : [],
    webhook: validation.webhook === null ? null : { ...validation.webhook },
  };
}
