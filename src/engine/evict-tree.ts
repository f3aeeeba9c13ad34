import type { OrganizationState } from './organization-state';
import type { ValidationRecord } from './records';

/** The ids of one validation tree, by kind, as eviction removed them. */
export interface EvictedTree {
  validationIds: string[];
  batchIds: string[];
  runIds: string[];
  informationRequestIds: string[];
}

/**
 * Removes a main validation and everything that belongs to it from an
 * organization's state: partners (and theirs), batches of every play, runs,
 * alerts, formations, information requests with their items and assignments
 * (docs/fidelity.md row 59). Walks the tree's own links, so it costs the
 * size of the tree, not of the state.
 */
export function evictTree(state: OrganizationState, root: ValidationRecord): EvictedTree {
  const evicted: EvictedTree = { validationIds: [], batchIds: [], runIds: [], informationRequestIds: [] };
  const seen = new Set<string>();
  const validations: ValidationRecord[] = [root];
  while (validations.length > 0) {
    const validation = validations.pop()!;
    if (seen.has(validation.id)) continue;
    seen.add(validation.id);
    evicted.validationIds.push(validation.id);
    for (const id of [...validation.relatedEntityIds, ...validation.partnersByTin.values()]) {
      const partner = state.validations.get(id);
      if (partner && !seen.has(id)) validations.push(partner);
    }
    for (const formation of state.formations.get(validation.id) ?? []) {
      for (const id of formation.stakeholderIds.values()) {
        const stakeholder = state.validations.get(id);
        if (stakeholder && stakeholder.rootId === root.id && !seen.has(id)) validations.push(stakeholder);
      }
    }
    state.formations.delete(validation.id);
    for (const batchId of validation.batchIds) evictBatch(state, batchId, evicted);
    for (const requestId of validation.informationRequestIds) {
      const request = state.informationRequests.get(requestId);
      if (!request) continue;
      for (const id of request.itemIds) state.requestableItems.delete(id);
      for (const id of request.assignmentIds) state.assignments.delete(id);
      state.informationRequests.delete(requestId);
      evicted.informationRequestIds.push(requestId);
    }
    state.validations.delete(validation.id);
  }
  return evicted;
}

function evictBatch(state: OrganizationState, batchId: string, evicted: EvictedTree): void {
  const batch = state.batches.get(batchId);
  if (!batch) return;
  state.batches.delete(batchId);
  evicted.batchIds.push(batchId);
  for (const id of batch.runIds) {
    state.runs.delete(id);
    evicted.runIds.push(id);
  }
  for (const id of batch.alertIds) state.alerts.delete(id);
  for (const child of batch.childBatchIds) evictBatch(state, child, evicted);
}
