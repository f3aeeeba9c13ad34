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
 * The related entities of a validation: its own partners in discovery order, each followed by the partners
 * below it (depth first, as the consolidated report lists them), once each. Every entity whose batch is in the
 * validation's `child_batches`, at any depth, is among them (spec §6 rule 4: a child's identity is read from
 * the entity validation; docs/fidelity.md row 39).
 */
function relatedEntities(state: OrganizationState, validation: ValidationRecord): RelatedEntity[] {
  const seen = new Set<string>([validation.id]);
  const listed: RelatedEntity[] = [];
  const visit = (parent: ValidationRecord): void => {
    for (const id of parent.relatedEntityIds) {
      if (seen.has(id)) continue;
      seen.add(id);
      const partner = must(state.validations, id);
      listed.push(renderRelatedEntity(partner));
      visit(partner);
    }
  };
  visit(validation);
  return listed;
}

/**
 * An entity validation as it stands now: every batch (oldest first), the
 * related entities announced so far (its partners and theirs), and the alerts and runs of its latest
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
    related_entities: relatedEntities(state, validation),
    latest_raised_alerts: latest ? latest.alertIds.map((id) => renderAlert(must(state.alerts, id))) : [],
    latest_data_source_runs: latest ? latest.runIds.map((id) => renderLatestRun(must(state.runs, id))) : [],
    webhook: validation.webhook === null ? null : { ...validation.webhook },
  };
}
