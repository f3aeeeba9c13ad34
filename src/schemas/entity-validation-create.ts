import { idOf } from './ids';
import { parseWith, type ParseResult } from './parse-result';
import { RiskLevel } from './entity-validation';
import { CountryCode, EntityCategory, HttpUrl, HttpsUrl, Tin } from './primitives';
import { z } from './zod';

/** The nested `information_request` of a create call (spec §2, §4). */
export const InformationRequestCreate = z
  .strictObject({
    template_id: idOf('irt'),
    webhook_url: HttpsUrl.optional().openapi({ description: 'Legacy model: receives every event of the request. HTTPS only.' }),
  })
  .openapi('InformationRequestCreate');

/**
 * The fields of a create call (spec §4). Required fields are not shown by the
 * spec; bvs-mock requires `tin` and `country` (docs/fidelity.md).
 */
export const EntityValidationCreateFields = z
  .strictObject({
    tin: Tin,
    country: CountryCode,
    contact_email: z.email({ message: 'must be an e-mail address' }).optional(),
    webhook_url: HttpsUrl.optional().openapi({ description: 'Legacy model (deprecated): receives every event of the validation. HTTPS only.' }),
    information_request: InformationRequestCreate.optional(),
  })
  .openapi('EntityValidationCreateFields');

/** The same fields wrapped in an `entity_validation` object, the spec's second body form. */
export const EntityValidationCreateWrapped = z.strictObject({ entity_validation: EntityValidationCreateFields }).openapi('EntityValidationCreateWrapped');

/** Body of `POST /api/v2/entity_validations`, in either form (spec §4). */
export const EntityValidationCreateRequest = z.union([EntityValidationCreateFields, EntityValidationCreateWrapped]).openapi('EntityValidationCreateRequest', {
  description: 'Either the fields at the top level, or wrapped in an entity_validation object.',
});

/**
 * The same two forms with plain-http legacy `webhook_url`s accepted, for
 * `--allow-http-webhooks` (docs/fidelity.md row 52). Not part of the document.
 */
const HttpAllowedFields = EntityValidationCreateFields.extend({
  webhook_url: HttpUrl.optional(),
  information_request: InformationRequestCreate.extend({ webhook_url: HttpUrl.optional() }).optional(),
});
const HttpAllowedWrapped = z.strictObject({ entity_validation: HttpAllowedFields });

export type EntityValidationCreateFields = z.infer<typeof EntityValidationCreateFields>;
export type EntityValidationCreateRequest = z.infer<typeof EntityValidationCreateRequest>;

/**
 * Parses a create body in either form and returns its fields. The form is
 * chosen by the presence of `entity_validation`, so the issues name paths in
 * the form the client meant rather than a union's "no branch matched".
 * `allowHttpWebhooks` accepts plain-http legacy webhook URLs.
 */
export function parseEntityValidationCreate(body: unknown, options: { allowHttpWebhooks?: boolean } = {}): ParseResult<EntityValidationCreateFields> {
  const [fields, wrappedForm] = options.allowHttpWebhooks
    ? [HttpAllowedFields, HttpAllowedWrapped]
    : [EntityValidationCreateFields, EntityValidationCreateWrapped];
  const wrapped = typeof body === 'object' && body !== null && !Array.isArray(body) && 'entity_validation' in body;
  if (!wrapped) return parseWith(fields, body);
  const result = parseWith(wrappedForm, body);
  return result.ok ? { ok: true, value: result.value.entity_validation } : result;
}

/** A stakeholder added through the API (bvs-mock extension; docs/fidelity.md row 18). */
export const StakeholderInput = z
  .strictObject({
    tin: Tin,
    country: CountryCode.optional().openapi({ description: "Default: the validation's country." }),
    category: EntityCategory,
    name: z.string().min(1),
    surname: z.string().optional(),
    display_name: z.string().optional(),
    risk_level: RiskLevel.optional(),
  })
  .openapi('StakeholderInput');

/** Body of `POST /api/v2/entity_validations/{id}/stakeholders` (bvs-mock extension). */
export const StakeholdersCreateRequest = z
  .strictObject({ stakeholders: z.array(StakeholderInput).min(1, { message: 'give at least one stakeholder' }) })
  .openapi('StakeholdersCreateRequest');

export type StakeholderInput = z.infer<typeof StakeholderInput>;
