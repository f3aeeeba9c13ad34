import { idOf } from './ids';
import { outbound } from './outbound';
import { DataSourceRunBatch } from './data-source-run-batch';
import { LatestDataSourceRun } from './data-source-run';
import { LegacyWebhook } from './legacy-webhook';
import { CountryCode, HttpUrl, Tin, Timestamp } from './primitives';
import { RaisedAlert } from './raised-alert';
import { z } from './zod';
import { seenValues } from './seen-values';

/** Validation status: only `created` is seen in the spec (§3); bvs-mock sends only that (docs/fidelity.md). */
/** An entity's category as the service sends it (values seen: business, person). */
const SeenCategory = seenValues(['business', 'person'], 'Values seen in the spec: business, person.');

export const EntityValidationStatus = z.enum(['created']).openapi({
  description: 'Only created is seen in the spec; clients should tolerate other values.',
});

/**
 * Risk level of a related entity. The spec gives only "nullable"; bvs-mock's
 * values are in docs/fidelity.md row 6.
 */
export const RiskLevel = z.enum(['low', 'medium', 'high']).nullable().openapi({
  description: 'Null until assessed. The values are not shown by the spec; bvs-mock uses low, medium, high.',
});

/** A partner, stakeholder or ultimate beneficial owner, with full identity (spec §2). */
export const RelatedEntity = outbound(
  z.strictObject({
    id: idOf('evl'),
    tin: Tin,
    country: CountryCode,
    display_name: z.string(),
    name: z.string(),
    surname: z.string().openapi({ description: 'May be an empty string.' }),
    category: SeenCategory,
    risk_level: RiskLevel,
  }),
  'RelatedEntity',
);

/** An information request as listed in an entity validation (spec §2). */
export const InformationRequestSummary = outbound(
  z.strictObject({
    id: idOf('irq'),
    name: z.string(),
    created_at: Timestamp,
    recipient_url: HttpUrl,
  }),
  'InformationRequestSummary',
);

/**
 * An entity validation, as returned by `GET /api/v2/entity_validations/:id` and
 * carried by `entity_validation.stakeholder.created` (spec §2, §6 rule 1).
 * `webhook` is the legacy model's echo, null when no `webhook_url` was given.
 */
export const EntityValidation = outbound(
  z.strictObject({
    id: idOf('evl'),
    tin: Tin,
    display_name: z.string(),
    name: z.string(),
    surname: z.string().openapi({ description: 'May be an empty string.' }),
    category: SeenCategory,
    country: CountryCode,
    status: seenValues(['created'], 'Value seen in the spec: created.'),
    created_at: Timestamp,
    information_requests: z.array(InformationRequestSummary),
    data_source_run_batches: z.array(DataSourceRunBatch),
    related_entities: z.array(RelatedEntity),
    latest_raised_alerts: z.array(RaisedAlert),
    latest_data_source_runs: z.array(LatestDataSourceRun),
    webhook: LegacyWebhook.nullable().openapi({ description: 'Legacy model: the webhook_url echo, or null.' }),
  }),
  'EntityValidation',
);

export type EntityValidation = z.infer<typeof EntityValidation>;
export type RelatedEntity = z.infer<typeof RelatedEntity>;
export type InformationRequestSummary = z.infer<typeof InformationRequestSummary>;
