import { OAuthTokenRequest, parseEntityValidationCreate, parseWith, toJsonPath } from '../../src/schemas';

const fields = { tin: '76086428-5', country: 'CL', contact_email: 'ops@client.example.com' };

test('a create body with the fields at the top level is accepted', () => {
  expect(parseEntityValidationCreate(fields)).toEqual({ ok: true, value: fields });
});

test('a create body wrapped in entity_validation yields the same fields', () => {
  expect(parseEntityValidationCreate({ entity_validation: fields })).toEqual({ ok: true, value: fields });
});

test('a create body with information_request and HTTPS webhooks is accepted', () => {
  const body = {
    ...fields,
    webhook_url: 'https://client.example.com/hooks',
    information_request: { template_id: 'irt_01JD', webhook_url: 'https://client.example.com/ir' },
  };
  expect(parseEntityValidationCreate(body).ok).toBe(true);
});

test.each([
  ['missing tin', { country: 'CL' }, '$.tin'],
  ['missing country', { tin: '1-9' }, '$.country'],
  ['empty tin', { tin: '', country: 'CL' }, '$.tin'],
  ['lower-case country', { tin: '1-9', country: 'cl' }, '$.country'],
  ['plain-http webhook_url', { ...fields, webhook_url: 'http://client.example.com/hooks' }, '$.webhook_url'],
  ['bad e-mail', { ...fields, contact_email: 'ops' }, '$.contact_email'],
  ['wrong template prefix', { ...fields, information_request: { template_id: 'irq_01JD' } }, '$.information_request.template_id'],
  ['unknown field', { ...fields, tax_id: 'x' }, '$.tax_id'],
])('a top-level create body with %s is refused at %s', (_what, body, path) => {
  const result = parseEntityValidationCreate(body);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain(path);
});

test('a wrapped create body reports paths inside entity_validation', () => {
  const result = parseEntityValidationCreate({ entity_validation: { tin: '1-9', country: 'Chile', webhook_url: 'http://x.example.com' } });
  expect(result).toMatchObject({ ok: false });
  if (!result.ok) expect(result.issues.map((issue) => issue.path).sort()).toEqual(['$.entity_validation.country', '$.entity_validation.webhook_url']);
});

test('a wrapped create body with a sibling key is refused at that key', () => {
  const result = parseEntityValidationCreate({ entity_validation: fields, tin: '1-9' });
  expect(result).toMatchObject({ ok: false, issues: [{ path: '$.tin', code: 'unknown_field' }] });
});

test.each([null, [], 'tin=1', 42])('a create body that is not an object (%p) is refused at the root', (body) => {
  expect(parseEntityValidationCreate(body)).toMatchObject({ ok: false, issues: [{ path: '$' }] });
});

test('the token request needs the client credentials grant', () => {
  const result = parseWith(OAuthTokenRequest, { grant_type: 'password', client_id: 'a', client_secret: 'b' });
  expect(result).toMatchObject({ ok: false, issues: [{ path: '$.grant_type', message: expect.stringContaining('client_credentials') }] });
});

test('the token request accepts an optional scope', () => {
  expect(parseWith(OAuthTokenRequest, { grant_type: 'client_credentials', client_id: 'a', client_secret: 'b', scope: 'validations:read' }).ok).toBe(true);
});

test('JSON paths quote keys that are not identifiers', () => {
  expect(toJsonPath(['partners', 1, 'runs'])).toBe('$.partners[1].runs');
  expect(toJsonPath(['a.b', 'c d'])).toBe('$["a.b"]["c d"]');
  expect(toJsonPath([])).toBe('$');
});

test('with allowHttpWebhooks, plain-http legacy webhook URLs pass in both forms and unknown fields are still reported', () => {
  const body = {
    tin: '1-9',
    country: 'CL',
    webhook_url: 'http://127.0.0.1:3000/hooks',
    information_request: { template_id: 'irt_x', webhook_url: 'http://127.0.0.1:3000/ir' },
  };
  expect(parseEntityValidationCreate(body)).toMatchObject({ ok: false });
  expect(parseEntityValidationCreate(body, { allowHttpWebhooks: true })).toEqual({ ok: true, value: body });
  expect(parseEntityValidationCreate({ entity_validation: body }, { allowHttpWebhooks: true })).toEqual({ ok: true, value: body });
  const extra = parseEntityValidationCreate({ entity_validation: { ...body, extra: 1 } }, { allowHttpWebhooks: true });
  expect(extra).toMatchObject({ ok: false, issues: [{ path: '$.entity_validation.extra', code: 'unknown_field' }] });
  expect(parseEntityValidationCreate({ ...body, webhook_url: 'ftp://127.0.0.1/x' }, { allowHttpWebhooks: true })).toMatchObject({
    ok: false,
    issues: [{ path: '$.webhook_url' }],
  });
});
