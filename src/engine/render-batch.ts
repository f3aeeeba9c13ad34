import { makeRunData, type ChildBatchesReadyBatch, type DataSourceRun, type DataSourceRunBatch, type LatestDataSourceRun, type RaisedAlert } from '../schemas';
import { OrganizationState } from './organization-state';
import type { AlertRecord, BatchRecord, RunRecord } from './records';

const { must } = OrganizationState;

/** A raised alert as the API shows it. */
export function renderAlert(alert: AlertRecord): RaisedAlert {
  return {
    id: alert.id,
    name: alert.name,
    severity: alert.severity,
    entity_validation_id: alert.validationId,
    data_source_run_batch_id: alert.batchId,
  };
}

/** A run as `data_source_run_batch.data_source_run.ready` carries it (spec §6 rule 6). */
export function renderRun(run: RunRecord): DataSourceRun {
  return {
    id: run.id,
    type: run.type,
    entity_validation_id: run.validationId,
    data_source_run_batch_id: run.batchId,
    created_at: run.createdAt,
    succeeded_at: run.succeededAt,
    status: run.status,
  };
}

/** Path of a run's records, as `records_url` gives it. */
function recordsPath(runId: string): string {
  return `/api/v2/data_source_runs/${runId}/records`;
}

/** A run with its `data`, as `latest_data_source_runs` lists it (docs/fidelity.md row 3). */
export function renderLatestRun(run: RunRecord): LatestDataSourceRun {
  const count = run.records.length;
  return { ...renderRun(run), data: makeRunData(run.id, run.sourceName, { count, records_url: recordsPath(run.id) }) };
}

/**
 * A batch with its runs, its own alerts and, recursively, its child batches,
 * as they stand now (spec §2: batches are self-similar). Its report URL is signed at its issue
 * instant, or at `reissueAt` for the operation that re-fetches it (docs/fidelity.md rows 18, 77); a read at
 * `readAt` signs anew only what has expired (OrganizationState.signedUrl).
 */
export function renderBatch(state: OrganizationState, batch: BatchRecord, reissueAt?: number, readAt?: number): DataSourceRunBatch {
  return {
    id: batch.id,
    runs_succeeded: batch.runsSucceeded,
    entity_validation_id: batch.validationId,
    tin: batch.tin,
    information_request_id: batch.informationRequestId,
    parent_batch_id: batch.parentBatchId,
    execution_type: batch.executionType,
    request_type: 'normal',
    created_at: batch.createdAt,
    updated_at: batch.updatedAt,
    consolidated_report_url: batch.consolidatedReport === null ? null : state.signedUrl(batch.consolidatedReport, reissueAt, readAt),
    data_source_runs: batch.runIds.map((id) => {
      const run = must(state.runs, id);
      return { id: run.id, type: run.type, status: run.status, created_at: run.createdAt, succeeded_at: run.succeededAt };
    }),
    raised_alerts: batch.alertIds.map((id) => renderAlert(must(state.alerts, id))),
    child_batches: batch.childBatchIds.map((id) => renderBatch(state, must(state.batches, id), reissueAt, readAt)),
    webhook: batch.webhook === null ? null : { ...batch.webhook },
  };
}

/**
 * The main batch as `child_batches_ready` carries it under the reading `child-batch-fields=listed` (docs/fidelity.md
 * row 21): each child with the fields §6 rule 4 lists, and nothing else.
 */
export function withListedChildren(batch: DataSourceRunBatch): ChildBatchesReadyBatch {
  return {
    ...batch,
    child_batches: batch.child_batches.map(({ id, runs_succeeded, entity_validation_id, tin, parent_batch_id, execution_type, raised_alerts }) => ({
      id,
      runs_succeeded,
      entity_validation_id,
      tin,
      parent_batch_id,
      execution_type,
      raised_alerts,
    })),
  };
}
