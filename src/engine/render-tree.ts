import type { Formation, InformationRequest, RunStatusChange, ValidationSummary, ValidationTree } from '../schemas';
import { OrganizationState } from './organization-state';
import type { ValidationRecord } from './records';
import { renderFormation } from './render-formation';
import { renderInformationRequest } from './render-information-request';
import { renderValidation } from './render-validation';

const { must } = OrganizationState;

/** What the engine knows of a tree beyond its records: its scenario and whether it settled. */
export interface TreeFacts {
  scenario: string | null;
  settled: boolean;
}

/** The validations of a tree, the main entity first, then its partners (and theirs) in discovery order. */
function treeValidations(state: OrganizationState, root: ValidationRecord): ValidationRecord[] {
  const seen = new Set<string>([root.id]);
  const found: ValidationRecord[] = [root];
  for (let index = 0; index < found.length; index += 1) {
    const validation = found[index]!;
    for (const id of [...validation.relatedEntityIds, ...validation.partnersByTin.values()]) {
      const partner = state.validations.get(id);
      if (partner === undefined || seen.has(id) || partner.rootId !== root.id) continue;
      seen.add(id);
      found.push(partner);
    }
  }
  return found;
}

/** A main validation as the dashboard lists it; `related_entities` counts every partner of its tree, as its `related_entities` lists them. */
export function summarizeValidation(state: OrganizationState, root: ValidationRecord, facts: TreeFacts): ValidationSummary {
  return {
    id: root.id,
    tin: root.tin,
    country: root.country,
    display_name: root.displayName,
    created_at: root.createdAt,
    scenario: facts.scenario,
    settled: facts.settled,
    related_entities: treeValidations(state, root).length - 1,
    batches: root.batchIds.length,
  };
}

/**
 * A whole tree as it stands now, for the dashboard: every validation rendered as the API reads it, the
 * latest formation of each, the information requests and every run's status history. Report and
 * document URLs are signed at `now` (rendered, never stored: a read changes nothing, docs/fidelity.md row 77).
 */
export function renderTree(state: OrganizationState, root: ValidationRecord, facts: TreeFacts, now: number): ValidationTree {
  const validations = treeValidations(state, root);
  const formations: Formation[] = [];
  const informationRequests: InformationRequest[] = [];
  const runHistory: Record<string, RunStatusChange[]> = {};
  for (const validation of validations) {
    const formation = state.formations.get(validation.id)?.at(-1);
    if (formation !== undefined) formations.push(renderFormation(state, formation, now));
    for (const id of validation.informationRequestIds) informationRequests.push(renderInformationRequest(state, must(state.informationRequests, id)));
    for (const batchId of validation.batchIds) {
      for (const runId of must(state.batches, batchId).runIds) runHistory[runId] = must(state.runs, runId).history.map((change) => ({ ...change }));
    }
  }
  return {
    organization_id: state.id,
    scenario: facts.scenario,
    settled: facts.settled,
    validation: renderValidation(state, root),
    related_entities: validations.slice(1).map((validation) => renderValidation(state, validation)),
    formations,
    information_requests: informationRequests,
    run_history: runHistory,
  };
}
