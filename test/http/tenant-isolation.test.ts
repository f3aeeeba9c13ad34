import { BvsMockConfig, OAuthTokenResponse, WebhookEndpointList } from '../../src/schemas';
import { bearer, expectApiError, useTestServer } from '../support/api-test-server';
import { CL_FORMATION_TIN, concreteRoutes, seedResources, type ConcreteRoute, type ResourceIds } from '../support/route-fixtures';

// Organizations are isolated: one organization's credentials never see another's resources (docs/design.md, The API).

const CONFIG = BvsMockConfig.parse({
  organizations: [
    {
      id: 'acme',
      api_keys: ['test_key_acme'],
      oauth_clients: [{ client_id: 'acme_client', client_secret: 'acme_secret' }],
      // Disabled, on loopback: no delivery leaves the machine.
      webhook_endpoints: [{ name: 'acme-ci', url: 'https://127.0.0.1:9/acme', enabled: false }],
    },
    {
      id: 'globex',
      api_keys: ['test_key_globex'],
      oauth_clients: [{ client_id: 'globex_client', client_secret: 'globex_secret' }],
      webhook_endpoints: [
        { name: 'globex-ci', url: 'https://127.0.0.1:9/globex', enabled: false },
        { name: 'globex-audit', url: 'https://127.0.0.1:9/globex-audit', enabled: false },
      ],
    },
  ],
});

const t = useTestServer({ config: CONFIG }, { reset: false });
let acme: ResourceIds;
let acmeRoutes: ConcreteRoute[];
let globexToken: string;

beforeAll(async () => {
  acme = await seedResources(t, 'test_key_acme', 'acme');
  acmeRoutes = concreteRoutes(acme).filter((route) => route.access === 'api' && route.pattern.includes(':id'));
  globexToken = OAuthTokenResponse.parse(
    (await t.token({ grant_type: 'client_credentials', client_id: 'globex_client', client_secret: 'globex_secret' })).json(),
  ).access_token;
});

function callAs(route: ConcreteRoute, credential: string) {
  if (route.method === 'GET') return t.get(route.path, credential);
  const body = route.operation === 'addStakeholders' ? { stakeholders: [{ tin: '1-9', category: 'person', name: 'Intruder' }] } : undefined;
  return t.json(route.method, route.path, body, bearer(credential));
}

test('the sweep covers every API operation that takes an id', () => {
  expect(acmeRoutes.map((route) => route.operation).sort()).toEqual([
    'addStakeholders',
    'generateConsolidatedReport',
    'getDataSourceRunBatch',
    'getDataSourceRunRecords',
    'getEntityValidation',
    'getFormation',
    'getInformationRequest',
  ]);
});

test.each([
  ['API key', () => 'test_key_globex'],
  ['OAuth access token', () => globexToken],
])("another organization's %s gets 404 not_found on every resource of acme, never the resource", async (_kind, credential) => {
  for (const route of acmeRoutes) {
    const answer = await callAs(route, credential());
    expectApiError(answer, 404, 'not_found');
    expect(answer.text()).not.toContain(CL_FORMATION_TIN);
    expect(answer.text()).not.toContain('Constructora Cordillera');
  }
});

test("the owner's credential reads the same resources", async () => {
  for (const route of acmeRoutes.filter((candidate) => candidate.method === 'GET')) {
    expect((await t.get(route.path, 'test_key_acme')).status).toBe(200);
  }
});

test('a refused intrusion changes nothing in the owner organization', async () => {
  const validation = (await t.get(`/api/v2/entity_validations/${acme.validation}`, 'test_key_acme')).json<{
    related_entities: Array<{ display_name: string }>;
  }>();
  expect(validation.related_entities.map((entity) => entity.display_name)).not.toContain('Intruder');
});

test.each([
  // seedResources may add a "fixture" endpoint to acme through the control API.
  ['acme', 'test_key_acme', ['acme-ci'], ['globex-ci', 'globex-audit']],
  ['globex', 'test_key_globex', ['globex-ci', 'globex-audit'], ['acme-ci', 'fixture']],
])('the webhook endpoint list of %s shows only its own endpoints', async (_organization, key, own, others) => {
  const { webhook_endpoints } = WebhookEndpointList.parse((await t.get('/api/v2/webhook_endpoints', key)).json());
  const names = webhook_endpoints.map((endpoint) => endpoint.name);
  expect(names).toEqual(expect.arrayContaining(own));
  for (const name of others) expect(names).not.toContain(name);
});

test('the same TIN in two organizations makes two separate validations', async () => {
  const mine = await t.create({ tin: CL_FORMATION_TIN, country: 'CL' }, { key: 'test_key_globex' });
  expect(mine.id).not.toBe(acme.validation);
  expectApiError(await t.get(`/api/v2/entity_validations/${mine.id}`, 'test_key_acme'), 404, 'not_found');
});

test("control API calls without organization_id act on the default organization (acme), not on globex's resources", async () => {
  const globexValidation = await t.create({ tin: '76920415-6', country: 'CL' }, { key: 'test_key_globex' });
  expectApiError(await t.json('POST', `/_mock/entity_validations/${globexValidation.id}/revalidate`, {}), 404, 'not_found');
  await t.runClock();
  expect((await t.json('POST', `/_mock/entity_validations/${globexValidation.id}/revalidate?organization_id=globex`, {})).status).toBe(202);
  await t.runClock();
  expect((await t.json('POST', `/_mock/entity_validations/${globexValidation.id}/revalidate`, { organization_id: 'globex' })).status).toBe(202);
  expectApiError(await t.json('POST', `/_mock/entity_validations/${acme.validation}/revalidate`, { organization_id: 'globex' }), 404, 'not_found');
});

test('the request journal filters by organization', async () => {
  const answer = await t.call('/_mock/requests?organization_id=globex');
  const { requests } = answer.json<{ requests: Array<{ organization_id: string | null }> }>();
  expect(requests.length).toBeGreaterThan(0);
  expect(requests.every((entry) => entry.organization_id === 'globex')).toBe(true);
});
