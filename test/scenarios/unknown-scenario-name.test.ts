import { closestNames } from '../../src/engine/scenarios/closest-names';
import { DEFAULT_API_KEY, bearer, expectApiError, useTestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// A mistyped X-Mock-Scenario used to get only "no scenario named …": the answer now names the closest ones.

const t = useTestServer();

test('an unknown scenario name in X-Mock-Scenario is answered with the closest names ("did you mean")', async () => {
  const answer = await t.json(
    'POST',
    '/api/v2/entity_validations',
    { tin: HAPPY_PARTNERS, country: 'CL' },
    { ...bearer(DEFAULT_API_KEY), 'x-mock-scenario': 'happy-partner' },
  );
  const error = expectApiError(answer, 400, 'invalid_request');
  expect(error.message).toMatch(
    /^No scenario named "happy-partner"\. Did you mean "happy-partners"( or "happy-no-partners")?\? GET \/_mock\/scenarios lists them/,
  );
  expect(error.issues?.[0]?.path).toBe('$headers["x-mock-scenario"]');
});

test('a name close to nothing gets no suggestion, only where the names are listed', async () => {
  const answer = await t.json(
    'POST',
    '/api/v2/entity_validations',
    { tin: HAPPY_PARTNERS, country: 'CL' },
    { ...bearer(DEFAULT_API_KEY), 'x-mock-scenario': 'zzzzzzzzzz' },
  );
  const error = expectApiError(answer, 400, 'invalid_request');
  expect(error.message).not.toMatch(/Did you mean/);
  expect(error.message).toMatch(/GET \/_mock\/scenarios lists them/);
});

test.each([
  ['partner-definitve-error', ['partner-definitive-error']],
  ['HAPPY-PARTNERS', ['happy-partners']],
  ['formation', ['cl-formation']],
  ['legacy', ['legacy-webhook']],
])('closestNames(%s) finds %s among the built-in names', (wanted, expected) => {
  const names = ['cl-formation', 'happy-no-partners', 'happy-partners', 'legacy-webhook', 'partner-definitive-error', 'partner-temporary-error'];
  expect(closestNames(wanted, names)).toEqual(expect.arrayContaining(expected));
  expect(closestNames(wanted, names)[0]).toBe(expected[0]);
});
