import { idOf } from './ids';
import { outbound } from './outbound';
import { CountryCode, HttpUrl, Tin, Timestamp } from './primitives';
import { z } from './zod';
import { seenValues } from './seen-values';

/** Roles in a formation's stakeholder list (spec §2, Formation stakeholder item). */
export const StakeholderRole = z.enum(['shareholder', 'manager', 'general_manager', 'tax_representative', 'director']);

/** A banking or legal power detected for a manager. */
export const Faculty = outbound(
  z.strictObject({
    key: z.string().openapi({ example: 'open_bank_accounts' }),
    code: z.string().openapi({ example: 'F01' }),
    present: z.boolean(),
  }),
  'Faculty',
);

/** One entry of the unified societary relation list of a formation. */
export const FormationStakeholder = outbound(
  z.strictObject({
    entity_validation_id: idOf('evl'),
    display_name: z.string(),
    tin: Tin,
    category: seenValues(['business', 'person'], 'Values seen in the spec: business, person.'),
    roles: z.array(StakeholderRole),
    ubo: z.boolean().openapi({ description: 'Ultimate beneficial owner.' }),
    participation: z.number().min(0).max(1).openapi({ description: 'Fraction from 0 to 1.' }),
    shares: z.number().int().min(0),
    amount: z.number(),
    faculties: z.array(Faculty),
  }),
  'FormationStakeholder',
);

/** A document of a formation (constitution deed and the like), behind a pre-signed URL. */
export const FormationDocument = outbound(
  z.strictObject({
    id: idOf('doc'),
    name: z.string(),
    label: z.string(),
    source: z.string(),
    cve: z.string().openapi({ description: 'Registry code (CVE).' }),
    url: HttpUrl.openapi({ description: 'Pre-signed; expires after 24 hours.' }),
    created_at: Timestamp,
  }),
  'FormationDocument',
);

/**
 * Societary (formation) information, carried by `entity_validation.formation.ready`
 * for businesses of a Chilean electronic company registry (spec §2, §6 rule 2).
 */
export const Formation = outbound(
  z.strictObject({
    entity_validation_id: idOf('evl'),
    data_source_run_batch_id: idOf('dsrb'),
    tin: Tin,
    name: z.string(),
    fantasy_name: z.string().nullable(),
    country: CountryCode,
    source: seenValues(['constitution'], 'Value seen in the spec: constitution.'),
    company_type: z.string(),
    constitution_date: Timestamp.openapi({ example: '2019-03-04T00:00:00.000Z' }),
    registry: z.string(),
    duration: z.string(),
    activity_description: z.string(),
    requires_manual_review: z.boolean(),
    manual_review_codes: z.array(z.string()),
    administration: outbound(
      z.strictObject({
        administration_type: z.string(),
        simple_signature: z.boolean(),
      }),
    ),
    equity: outbound(
      z.strictObject({
        total_amount: z.number(),
        total_shares: z.number().int().min(0),
        currency: z.string().regex(/^[A-Z]{3}$/, { message: 'must be a three-letter currency code, like CLP' }),
        shares_type: z.string(),
      }),
    ),
    stakeholders: z.array(FormationStakeholder),
    documents: z.array(FormationDocument),
    legal_report_url: HttpUrl.openapi({ description: 'Generated legal report PDF; pre-signed, expires after 24 hours.' }),
  }),
  'Formation',
);

export type Formation = z.infer<typeof Formation>;
export type FormationStakeholder = z.infer<typeof FormationStakeholder>;
