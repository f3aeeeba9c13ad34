import { z } from './zod';

/**
 * A timestamp as the spec writes them: ISO 8601 in UTC with milliseconds,
 * `2026-01-15T10:00:00.000Z` (spec §2). Offsets other than `Z`, and missing or
 * extra fraction digits, are refused.
 */
export const Timestamp = z.iso
  .datetime({ precision: 3, message: 'must be an ISO 8601 UTC timestamp with milliseconds, like 2026-01-15T10:00:00.000Z' })
  .openapi({ description: 'ISO 8601 UTC timestamp with milliseconds.', example: '2026-01-15T10:00:00.000Z' });

/** An absolute HTTP or HTTPS URL. */
export const HttpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http:// or https:// URL' })
  .openapi({ example: 'https://bvs.example.com/files/report.pdf' });

/** An absolute HTTPS URL: the only scheme the legacy model accepts for `webhook_url` (spec §6, §8). */
export const HttpsUrl = z
  .url({ protocol: /^https$/, message: 'must be an absolute https:// URL (plain http is not accepted here)' })
  .openapi({ example: 'https://client.example.com/bvs/webhooks' });

export { COUNTRY_CODES, CountryCode, isCountryCode } from './country-code';

/** A tax identification number. Its format per country is not shown by the spec (docs/fidelity.md). */
export const Tin = z.string().min(1, { message: 'must not be empty' }).max(64, { message: 'must be at most 64 characters' }).openapi({ example: '76086428-5' });

/** Entity categories the spec shows: `business`, `person` (values seen; docs/fidelity.md). */
export const EntityCategory = z.enum(['business', 'person']).openapi({
  description: 'Values seen in the spec: business, person.',
});

/** A path relative to the API base, such as `records_url`. */
export const RelativePath = z
  .string()
  .regex(/^\/[^\s]*$/, { message: 'must be a path relative to the API base, starting with /' })
  .openapi({ example: '/api/v2/data_source_runs/dsr_01JD5ZQ8K3/records' });
