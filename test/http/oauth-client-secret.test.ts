import crypto from 'node:crypto';
import { OrganizationRegistry } from '../../src/config';
import { BvsMockConfig } from '../../src/schemas';

// Regression: POST /oauth/token compared the client secret with `===`, whose time depends on how many
// leading characters match. The registry now compares sha256 digests with timingSafeEqual.

const registry = new OrganizationRegistry(
  BvsMockConfig.parse({
    organizations: [{ id: 'acme', api_keys: ['test_key_acme'], oauth_clients: [{ client_id: 'acme_client', client_secret: 'acme_secret_0123' }] }],
  }),
);

afterEach(() => {
  jest.restoreAllMocks();
});

test('the right client secret gives the client with its organization and scopes', () => {
  expect(registry.authenticateClient('acme_client', 'acme_secret_0123')).toMatchObject({ organizationId: 'acme', clientSecret: 'acme_secret_0123' });
});

test.each([
  ['a wrong secret of the same length', 'acme_secret_0124'],
  ['a prefix of the secret', 'acme_secret'],
  ['a longer secret', 'acme_secret_01234'],
  ['an empty secret', ''],
])('%s is refused', (_label, secret) => {
  expect(registry.authenticateClient('acme_client', secret)).toBeUndefined();
});

test('an unknown client is refused, even with an empty secret', () => {
  expect(registry.authenticateClient('nobody', '')).toBeUndefined();
  expect(registry.authenticateClient('nobody', 'acme_secret_0123')).toBeUndefined();
});

test.each([
  ['the right secret', 'acme_client', 'acme_secret_0123'],
  ['a secret of another length', 'acme_client', 'x'],
  ['an unknown client', 'nobody', 'acme_secret_0123'],
])('the compare runs timingSafeEqual over two 32-byte digests for %s', (_label, clientId, secret) => {
  const spy = jest.spyOn(crypto, 'timingSafeEqual');
  registry.authenticateClient(clientId, secret);
  expect(spy).toHaveBeenCalledTimes(1);
  const [given, expected] = spy.mock.calls[0]! as [Buffer, Buffer];
  expect([given.length, expected.length]).toEqual([32, 32]);
});
