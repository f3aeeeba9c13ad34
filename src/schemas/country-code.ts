import { countries } from 'countries-list';
import { z } from './zod';

/**
 * The country codes bvs-mock accepts: every key of the maintained `countries-list` package, that is
 * the ISO 3166-1 alpha-2 codes plus the three it carries beside them, `AC` and `TA` (exceptionally
 * reserved) and `XK` (Kosovo, the user-assigned code in common use). docs/fidelity.md row 9.
 */
export const COUNTRY_CODES: readonly string[] = Object.freeze(Object.keys(countries).sort());

const KNOWN = new Set(COUNTRY_CODES);

const FORM_MESSAGE = 'must be a two-letter upper-case country code (ISO 3166-1 alpha-2), like CL';

/** Whether `code` is one of {@link COUNTRY_CODES}, exactly as written (upper case). */
export function isCountryCode(code: string): boolean {
  return KNOWN.has(code);
}

/**
 * Two-letter country code, upper case (ISO 3166-1 alpha-2), as `CL`. The form is checked first, so
 * `cl` is told to be upper case (`CL`); a well-formed code that names no country (`AB`, `ZZ`) is
 * refused as not one. The document keeps the pattern, not an enum (docs/fidelity.md row 9).
 */
export const CountryCode = z
  .string()
  .superRefine((code, context) => {
    if (!/^[A-Z]{2}$/.test(code)) {
      const upper = code.toUpperCase();
      const hint = isCountryCode(upper) ? `; write ${upper}, not ${JSON.stringify(code)}` : `, got ${JSON.stringify(code)}`;
      context.addIssue({ code: 'invalid_format', format: 'regex', pattern: '^[A-Z]{2}$', input: code, message: `${FORM_MESSAGE}${hint}` });
      return;
    }
    if (!isCountryCode(code))
      context.addIssue({ code: 'invalid_value', values: [], input: code, message: `must be an ISO 3166-1 alpha-2 country code, like CL; ${code} is not one` });
  })
  .openapi({
    pattern: '^[A-Z]{2}$',
    description: 'ISO 3166-1 alpha-2 country code, upper case. Codes that name no country (AB, ZZ) are refused.',
    example: 'CL',
  });
