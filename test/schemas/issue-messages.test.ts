import { z } from '../../src/schemas/zod';
import { parseWith } from '../../src/schemas';
import { DEFAULT_API_KEY, bearer, expectApiError, useTestServer } from '../support/api-test-server';

// Every check zod makes speaks bvs-mock's one form ("must be …, got …"), whether or not the schema wrote
// its own message: zod's wording ("Invalid option: expected one of …") never reaches a user.

const ZOD_WORDING = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;
const HOUSE_FORM = /^(must |required field is missing|has |does not |is not |"[^"]+" (is|are) )/;

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = parseWith(schema, value);
  if (result.ok) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  return result.issues.map((issue) => issue.message);
}

test.each<[string, z.ZodType, unknown, RegExp]>([
  ['invalid_type', z.boolean(), 'yes', /^must be a boolean, got a string \("yes"\)$/],
  ['invalid_type (missing)', z.object({ name: z.string() }), {}, /^required field is missing \(expected a string\)$/],
  ['invalid_value (enum)', z.enum(['none', 'secret']), 'oauth2', /^must be one of "none", "secret", got a string \("oauth2"\)$/],
  ['invalid_value (literal)', z.literal('CL'), 'AR', /^must be "CL", got a string \("AR"\)$/],
  ['too_small (string)', z.string().min(1), '', /^must have at least 1 character, got 0$/],
  ['too_small (array)', z.array(z.string()).min(1), [], /^must have at least 1 item, got 0$/],
  ['too_small (number)', z.number().min(1), 0, /^must be at least 1, got the number 0$/],
  ['too_big (string)', z.string().max(3), 'abcd', /^must have at most 3 characters, got 4$/],
  ['too_big (number, exclusive)', z.number().lt(10), 10, /^must be less than 10, got the number 10$/],
  ['invalid_format (datetime)', z.iso.datetime(), 'yesterday', /^must be a date and time in ISO 8601 UTC/],
  ['invalid_format (url)', z.url(), 'not a url', /^must be an absolute URL/],
  ['invalid_format (regex)', z.string().regex(/^[a-z]+$/), 'A1', /^must match the pattern/],
  ['not_multiple_of', z.number().multipleOf(5), 7, /^must be a multiple of 5, got the number 7$/],
  ['unrecognized_keys', z.strictObject({}), { a: 1 }, /^"a" is not a known field here$/],
  ['invalid_union', z.union([z.string(), z.number()]), true, /^does not match any of the forms allowed here/],
  [
    'invalid_union (discriminator)',
    z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]),
    { kind: 'c' },
    /^must be one of "a", "b", got a string \("c"\)$/,
  ],
  ['invalid_key', z.record(z.string().min(2), z.number()), { b: 1 }, /^has a key that is not allowed here/],
])('zod %s reads in the house form, not in zod wording', (_code, schema, value, expected) => {
  const messages = messagesOf(schema, value);
  for (const message of messages) {
    expect(message).not.toMatch(ZOD_WORDING);
    expect(message).toMatch(HOUSE_FORM);
  }
  expect(messages.some((message) => expected.test(message))).toBe(true);
});

test('a schema that writes its own message keeps its words and says what was given', () => {
  expect(messagesOf(z.string().min(1, { message: 'must not be empty' }), '')).toEqual(['must not be empty, got a string ("")']);
});

test('a format check with its own message still says what was given ($.url, $.contact_email left out "got …")', () => {
  expect(messagesOf(z.url({ protocol: /^https?$/, message: 'must be an absolute http:// or https:// URL' }), 'ftp://x')).toEqual([
    'must be an absolute http:// or https:// URL, got a string ("ftp://x")',
  ]);
  expect(messagesOf(z.email({ message: 'must be an e-mail address' }), 'nobody')).toEqual(['must be an e-mail address, got a string ("nobody")']);
});

test('what was given is quoted up to 100 characters, and a longer value by its start and length', () => {
  const long = `https://example.com/${'a'.repeat(200)}`;
  const [short] = messagesOf(z.email({ message: 'must be an e-mail address' }), 'x'.repeat(100));
  expect(short).toBe(`must be an e-mail address, got a string (${JSON.stringify('x'.repeat(100))})`);
  const [message] = messagesOf(z.email({ message: 'must be an e-mail address' }), long);
  expect(message).toBe(`must be an e-mail address, got a string of ${long.length} characters starting ${JSON.stringify(long.slice(0, 100))}`);
});

test('a message that already names the value is left as it is', () => {
  const schema = z.string().refine((value) => value === 'a', { message: 'must be "a"; "b" is not it' });
  expect(
    messagesOf(
      z.string().superRefine((value, context) => context.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not allowed` })),
      'b',
    ),
  ).toEqual(['"b" is not allowed']);
  expect(messagesOf(z.boolean(), 'yes')).toEqual(['must be a boolean, got a string ("yes")']);
  expect(messagesOf(schema, 'b')).toEqual(['must be "a"; "b" is not it']);
});

describe('over HTTP', () => {
  const t = useTestServer();

  test('a wrong option and a string where a boolean goes are answered in the house form, not "Invalid option" or "Invalid input"', async () => {
    const answer = await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: 'https://example.com/hooks', enabled: 'yes', auth_type: 'oauth2' });
    const error = expectApiError(answer, 422, 'validation_failed');
    const byPath = Object.fromEntries((error.issues ?? []).map((issue) => [issue.path, issue.message]));
    expect(byPath['$.enabled']).toBe('must be a boolean, got a string ("yes")');
    expect(byPath['$.auth_type']).toMatch(/^must be one of "none", "secret"/);
    expect(error.message).not.toMatch(/Invalid (option|input)/);
  });

  test('format checks of requests say what was given: $.url of an endpoint, $.contact_email of a validation', async () => {
    const endpoint = expectApiError(
      await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: 'ftp://example.com/hooks' }),
      422,
      'validation_failed',
    );
    expect(endpoint.issues).toContainEqual(
      expect.objectContaining({ path: '$.url', message: expect.stringMatching(/, got a string \("ftp:\/\/example\.com\/hooks"\)$/) }),
    );
    const created = await t.json(
      'POST',
      '/api/v2/entity_validations',
      { tin: '76086428-5', country: 'CL', contact_email: 'not-an-address' },
      bearer(DEFAULT_API_KEY),
    );
    const validation = expectApiError(created, 422, 'validation_failed');
    expect(validation.issues).toContainEqual({
      path: '$.contact_email',
      code: 'invalid_format',
      message: 'must be an e-mail address, got a string ("not-an-address")',
    });
    expect(validation.message).toContain('$.contact_email: must be an e-mail address, got a string ("not-an-address")');
  });
});
