import { idOf } from './ids';
import { outbound } from './outbound';
import { DataSourceRunSummary } from './data-source-run';
import { LegacyWebhook } from './legacy-webhook';
import { HttpUrl, Tin, Timestamp } from './primitives';
import { RaisedAlert } from './raised-alert';
import { z } from './zod';
import { seenValues } from './seen-values';

/** `direct` for the main entity's batch, `related` for a partner's (values seen; spec §2). */
export const ExecutionType = z.enum(['direct', 'related']).openapi({
  description: 'direct: the main entity; related: a partner. Values seen in the spec.',
});

/** `normal` is the only value the spec shows. */
export const RequestType = z.enum(['normal']).openapi({ description: 'Value seen in the spec: normal.' });

/**
 * A data source run batch (spec §2). Batches are self-similar: `child_batches`
 * holds one batch per related entity, in the same shape, empty when there are none.
 */
export const DataSourceRunBatch = outbound(
  z.strictObject({
    id: idOf('dsrb'),
    runs_succeeded: z.boolean().openapi({ description: "Overall success of the batch's runs." }),
    entity_validation_id: idOf('evl'),
    tin: Tin,
    information_request_id: idOf('irq').nullable(),
    parent_batch_id: idOf('dsrb').nullable().openapi({ description: "Null for the main entity's batch." }),
    execution_type: seenValues(['direct', 'related'], 'direct: the main entity; related: a partner. Values seen in the spec.'),
    request_type: seenValues(['normal'], 'Value seen in the spec: normal.'),
    created_at: Timestamp,
    updated_at: Timestamp,
    consolidated_report_url: HttpUrl.nullable().openapi({ description: 'PDF download URL when available (pre-signed, 24 hours).' }),
    data_source_runs: z.array(DataSourceRunSummary),
    raised_alerts: z.array(RaisedAlert).openapi({ description: "Alerts of the batch's own entity only." }),
    get child_batches() {
      return z.array(DataSourceRunBatch);
    },
    webhook: LegacyWebhook.nullable().openapi({ description: 'Legacy model only; null otherwise.' }),
  }),
  'DataSourceRunBatch',
);

export type DataSourceRunBatch = z.infer<typeof DataSourceRunBatch>;

/** The fields §6 rule 4 lists for each child of `child_batches_ready`: "id, runs_succeeded, entity_validation_id, tin, parent_batch_id, execution_type related and its own raised_alerts". */
const CHILD_BATCH_LISTED_FIELDS = ['id', 'runs_succeeded', 'entity_validation_id', 'tin', 'parent_batch_id', 'execution_type', 'raised_alerts'] as const;

/**
 * A child as `child_batches_ready` carries it: the fields §6 rule 4 lists, and the rest of a batch (§2: "same shape
 * as a batch") when sent. bvs-mock sends whole batches unless the reading `child-batch-fields=listed` is played
 * (docs/fidelity.md row 21).
 */
const ChildBatchesReadyChild = outbound(
  DataSourceRunBatch.partial().required(
    Object.fromEntries(CHILD_BATCH_LISTED_FIELDS.map((field) => [field, true])) as { [K in (typeof CHILD_BATCH_LISTED_FIELDS)[number]]: true },
  ),
  'ChildBatchesReadyChild',
).openapi({
  description:
    "A partner's batch: §6 rule 4 lists id, runs_succeeded, entity_validation_id, tin, parent_batch_id, execution_type and raised_alerts; §2 gives children the shape of a batch. Read the other fields only when present.",
});

/** The main batch as `data_source_run_batch.child_batches_ready` carries it (spec §6 rule 4). */
export const ChildBatchesReadyBatch = outbound(
  z.strictObject({ ...DataSourceRunBatch.shape, child_batches: z.array(ChildBatchesReadyChild) }),
  'ChildBatchesReadyBatch',
);

export type ChildBatchesReadyBatch = z.infer<typeof ChildBatchesReadyBatch>;
