import { countries } from 'countries-list';
import { COUNTRY_CODES, CountryCode, parseWith } from '../../src/schemas';
import { DEFAULT_API_KEY, bearer, expectApiError, useTestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// Country codes are the ISO 3166-1 alpha-2 list of the countries-list package, not any two capitals
// (docs/fidelity.md row 9).

const t = useTestServer();

const create = (body: unknown) => t.json('POST', '/api/v2/entity_validations', body, bearer(DEFAULT_API_KEY));

test.each(['AB', 'ZZ'])('a country code outside ISO 3166-1 (%s) is refused with 422 at $.country', async (code) => {
  const error = expectApiError(await create({ tin: '76543210-3', country: code }), 422, 'validation_failed');
  expect(error.issues).toEqual([
    { path: '$.country', code: 'invalid_value', message: `must be an ISO 3166-1 alpha-2 country code, like CL; ${code} is not one` },
  ]);
  expect(error.message).toContain(`${code} is not one`);
});

test('a country code outside ISO 3166-1 in the wrapped body form is refused at $.entity_validation.country', async () => {
  const error = expectApiError(await create({ entity_validation: { tin: '76543210-3', country: 'ZZ' } }), 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.path)).toEqual(['$.entity_validation.country']);
});

test('a lower-case country code is still refused as lower case, with the upper-case form to write', async () => {
  const error = expectApiError(await create({ tin: '76543210-3', country: 'cl' }), 422, 'validation_failed');
  expect(error.issues).toEqual([
    { path: '$.country', code: 'invalid_format', message: 'must be a two-letter upper-case country code (ISO 3166-1 alpha-2), like CL; write CL, not "cl"' },
  ]);
});

test.each(['CL', 'US', 'DE', 'XK'])('a listed country code (%s) is accepted by a create call', async (code) => {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: code });
  expect(created.country).toBe(code);
});

test('a stakeholder with a country code outside ISO 3166-1 is refused at its own path', async () => {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  const body = { stakeholders: [{ tin: '11111111-1', category: 'person', name: 'Rosa', country: 'ZZ' }] };
  const error = expectApiError(
    await t.json('POST', `/api/v2/entity_validations/${created.id}/stakeholders`, body, bearer(DEFAULT_API_KEY)),
    422,
    'validation_failed',
  );
  expect(error.issues.map((issue) => issue.path)).toEqual(['$.stakeholders[0].country']);
});

test('a scenario whose entity has a country code outside ISO 3166-1 is refused at $.entity.country', async () => {
  const body = `name: unknown-country
description: A scenario with a country that does not exist.
tins: ["76000333-4"]
entity:
  tin: 76000333-4
  country: ZZ
  category: business
  name: Nowhere SpA
  runs:
    - { type: cl/sii, outcomes: [{ succeeded: 10s }] }
`;
  const error = expectApiError(
    await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body }),
    422,
    'validation_failed',
  );
  expect(error.issues).toEqual([expect.objectContaining({ path: '$.entity.country', message: expect.stringContaining('ZZ is not one') })]);
});

test('every code of the countries-list package is accepted and nothing else of two capitals is', () => {
  expect(COUNTRY_CODES).toEqual(Object.keys(countries).sort());
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const first of letters) {
    for (const second of letters) {
      const code = first + second;
      expect({ code, ok: parseWith(CountryCode, code).ok }).toEqual({ code, ok: code in countries });
    }
  }
});
