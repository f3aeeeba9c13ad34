import { idOf } from './ids';
import { outbound } from './outbound';
import { RelativePath, Timestamp } from './primitives';
import { z } from './zod';

/**
 * Data source run states (spec §3). The transitions are not shown; bvs-mock's
 * are in docs/fidelity.md row 14.
 */
export const DataSourceRunStatus = z
  .enum(['created', 'succeeded', 'temporary_error', 'definitive_error', 'missing_input_data'])
  .openapi('DataSourceRunStatus', {
    description:
      'created: in progress; succeeded: completed; temporary_error: temporary failure, will retry; definitive_error: permanent failure; missing_input_data: waiting for required input.',
  });

export type DataSourceRunStatus = z.infer<typeof DataSourceRunStatus>;

/** Run type, `<country_code>/<source_name>` in lower case, as `cl/sii` (spec §2). */
export const DataSourceRunType = z
  .string()
  .regex(/^[a-z]{2}\/[a-z0-9][a-z0-9_.-]*$/, {
    message: 'must be <country_code>/<source_name> in lower case, like cl/sii',
  })
  .openapi({ example: 'cl/sii' });

/** `succeeded_at` is null until the run succeeds (docs/fidelity.md). */
const SucceededAt = Timestamp.nullable().openapi({
  description: 'Set when the run succeeded; null before that and for runs that did not succeed.',
});

/** A run as summarized inside a batch's `data_source_runs` (spec §2, Data source run batch). */
export const DataSourceRunSummary = outbound(
  z.strictObject({
    id: idOf('dsr'),
    type: DataSourceRunType,
    status: DataSourceRunStatus,
    created_at: Timestamp,
    succeeded_at: SucceededAt,
  }),
  'DataSourceRunSummary',
);

/** A data source run, as carried by `data_source_run_batch.data_source_run.ready` (spec §6, rule 6). */
export const DataSourceRun = outbound(
  z.strictObject({
    id: idOf('dsr'),
    type: DataSourceRunType,
    entity_validation_id: idOf('evl'),
    data_source_run_batch_id: idOf('dsrb'),
    created_at: Timestamp,
    succeeded_at: SucceededAt,
    status: DataSourceRunStatus,
  }),
  'DataSourceRun',
);

/** The per-source part of a run's `data`: how many records, and where to read them. */
export const DataSourceRunSourceData = outbound(
  z.strictObject({
    count: z.number().int().min(0),
    records_url: RelativePath,
  }),
  'DataSourceRunSourceData',
);

/**
 * A run's `data` (spec §2): an `id` and one per-source object keyed by the
 * source name (the part of `type` after the slash: `sii` for `cl/sii`). The
 * structure per run type is not shown (docs/fidelity.md row 3).
 */
export const DataSourceRunData = z
  .object({ id: z.string().min(1) })
  .catchall(DataSourceRunSourceData)
  .openapi('DataSourceRunData', {
    description: 'An id plus one object per source, keyed by the source name (sii for cl/sii), holding count and records_url.',
    example: { id: 'dsr_01JD5ZQ8K3', sii: { count: 3, records_url: '/api/v2/data_source_runs/dsr_01JD5ZQ8K3/records' } },
  });

/** A run as listed in an entity validation's `latest_data_source_runs`: the run plus its `data`. */
export const LatestDataSourceRun = outbound(z.strictObject({ ...DataSourceRun.shape, data: DataSourceRunData }), 'LatestDataSourceRun');

export type DataSourceRun = z.infer<typeof DataSourceRun>;
export type DataSourceRunSummary = z.infer<typeof DataSourceRunSummary>;
export type LatestDataSourceRun = z.infer<typeof LatestDataSourceRun>;

/** A source's records, answered by `GET /api/v2/data_source_runs/:id/records` (shape not shown; docs/fidelity.md). */
export const DataSourceRunRecords = outbound(
  z.strictObject({
    data_source_run_id: idOf('dsr'),
    type: DataSourceRunType,
    count: z.number().int().min(0),
    records: z.array(z.record(z.string(), z.unknown())),
  }),
  'DataSourceRunRecords',
);

export type DataSourceRunRecords = z.infer<typeof DataSourceRunRecords>;

export type DataSourceRunData = z.infer<typeof DataSourceRunData>;
export type DataSourceRunSourceData = z.infer<typeof DataSourceRunSourceData>;

/**
 * Builds a run's `data`. TypeScript cannot write an object whose `id` is a
 * string while every other key holds source data, so the one cast lives here.
 */
export function makeRunData(id: string, sourceName: string, source: DataSourceRunSourceData): DataSourceRunData {
  return { id, [sourceName]: source } as unknown as DataSourceRunData;
}
