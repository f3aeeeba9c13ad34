import { DataSourceRunStatus } from './data-source-run';
import { EntityValidation } from './entity-validation';
import { Formation } from './formation';
import { idOf } from './ids';
import { InformationRequest } from './information-request';
import { outbound } from './outbound';
import { CutBySize } from './page-cursor';
import { Timestamp } from './primitives';
import { z } from './zod';

/**
 * The control API's answers that the dashboard (`/_mock/`) reads beside the delivery screens: the
 * organizations to switch between, the validations of one, and one validation's whole tree. A script
 * may read them the same way.
 */

/** One configured organization (`GET /_mock/organizations`); credentials are never listed. */
export const OrganizationListing = outbound(
  z.strictObject({
    id: z.string(),
    default: z.boolean().openapi({ description: 'Control calls without `organization_id` act on this one.' }),
    oauth_configured: z.boolean().openapi({ description: 'Whether OAuth for endpoints is set, which enabling an OAuth endpoint needs (spec §3).' }),
  }),
  'OrganizationListing',
);

/** `GET /_mock/organizations`. */
export const OrganizationList = outbound(z.strictObject({ organizations: z.array(OrganizationListing) }), 'OrganizationList');

/** A validation created through the API, as the dashboard lists it (`GET /_mock/entity_validations`). */
export const ValidationSummary = outbound(
  z.strictObject({
    id: idOf('evl'),
    tin: z.string(),
    country: z.string(),
    display_name: z.string(),
    created_at: Timestamp,
    scenario: z.string().nullable().openapi({ description: 'The scenario its tree plays.' }),
    settled: z.boolean().openapi({ description: 'Nothing of its tree is scheduled any more.' }),
    related_entities: z.number().int().openapi({ description: 'Related entities announced so far, in the whole tree (partners of partners too).' }),
    batches: z.number().int().openapi({ description: 'Plays so far: one, and one more per revalidation.' }),
  }),
  'ValidationSummary',
);

/** A page of `GET /_mock/entity_validations`, newest first. */
export const ValidationSummaryPage = outbound(
  z.strictObject({
    validations: z.array(ValidationSummary),
    total: z.number().int().openapi({ description: "The organization's validations kept, on every page." }),
    next_cursor: z.string().nullable().openapi({ description: 'Pass it back as `cursor` for the next (older) page; null on the last page.' }),
    cut_by_size: CutBySize,
  }),
  'ValidationSummaryPage',
);

/** One status a run reached, and when (simulated time). */
export const RunStatusChange = outbound(z.strictObject({ status: DataSourceRunStatus, at: Timestamp }), 'RunStatusChange');

/** A validation's tree as it stands now (`GET /_mock/entity_validations/:id`): what the dashboard draws. */
export const ValidationTree = outbound(
  z.strictObject({
    organization_id: z.string(),
    scenario: z.string().nullable(),
    settled: z.boolean(),
    validation: EntityValidation,
    related_entities: z
      .array(EntityValidation)
      .openapi({ description: 'Every other validation of the tree (partners, and theirs), each as `GET /api/v2/entity_validations/:id` answers it.' }),
    formations: z.array(Formation).openapi({ description: 'The latest formation of each validation of the tree that has one.' }),
    information_requests: z.array(InformationRequest),
    run_history: z.record(z.string(), z.array(RunStatusChange)).openapi({ description: 'Every run of the tree by id: the statuses it reached, oldest first.' }),
  }),
  'ValidationTree',
);

/** The `data:` of each `change` event of `GET /_mock/stream`: what changed, never the data itself (src/world/change-feed.ts). */
export const ChangeNoticeData = outbound(
  z.strictObject({
    id: z.number().int(),
    kinds: z.array(z.enum(['emitted', 'delivery', 'request', 'clock', 'reset'])),
    now: Timestamp.openapi({ description: 'Simulated time when it was sent.' }),
  }),
  'ChangeNotice',
);

/** `GET /_mock/entity_validations`: organization and page. */
export const ValidationListQuery = z.object({
  organization_id: z.string().optional().openapi({ description: 'The organization acted on; default: the default organization.' }),
  limit: z.number().int().min(1).max(1000).optional().openapi({ description: 'Items on the page, 1 to 1000; default 100.' }),
  cursor: z.string().optional().openapi({ description: '`next_cursor` of the previous page, as it was given.' }),
});

export type OrganizationListing = z.infer<typeof OrganizationListing>;
export type ValidationSummary = z.infer<typeof ValidationSummary>;
export type ValidationTree = z.infer<typeof ValidationTree>;
export type RunStatusChange = z.infer<typeof RunStatusChange>;
