import { allRoutes } from '../../src/http';
import { EntityValidation, Formation } from '../../src/schemas';
import { DEFAULT_API_KEY, type TestServer } from './api-test-server';
import { CL_FORMATION } from './built-in-tins';

/** Real resources of one organization, to put in the path parameters of every route. */
export interface ResourceIds {
  organization: string;
  validation: string;
  batch: string;
  run: string;
  informationRequest: string;
  /** A webhook endpoint (disabled, on loopback) and one delivery event record, when the server has those routes. */
  webhookEndpoint: string;
  event: string;
  /** Path and query of pre-signed file URLs, by folder under `/_mock/files/`. */
  files: { reports: string; legal_reports: string; documents: string };
}

/** A route as a sweep calls it: method, a concrete path, the operation and who may call it. */
export interface ConcreteRoute {
  method: string;
  path: string;
  pattern: string;
  operation: string;
  access: 'api' | 'public' | 'control';
}

/** cl-formation: the one built-in scenario with a formation, a legal report and documents. */
export const CL_FORMATION_TIN = CL_FORMATION;

/**
 * Creates a cl-formation validation with an information request, plays it to
 * the end, and returns the ids every path parameter needs. Where the server
 * offers the dashboard's endpoint routes, a disabled endpoint on loopback is
 * added first, so its delivery records fail at once and nothing leaves the machine.
 */
export async function seedResources(t: TestServer, key = DEFAULT_API_KEY, organization = 'default'): Promise<ResourceIds> {
  const has = (operation: string) => allRoutes().some((route) => route.operation === operation);
  let webhookEndpoint = 'whe_none';
  if (has('control.webhook_endpoints.create')) {
    const answer = await t.control.call('control.webhook_endpoints.create', {
      body: { organization_id: organization, name: 'fixture', url: 'https://127.0.0.1:9/fixture', enabled: false },
    });
    webhookEndpoint = answer.webhook_endpoint.id;
  }
  const created = await t.create({ tin: CL_FORMATION_TIN, country: 'CL', information_request: { template_id: 'irt_seed' } }, { key });
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`, key)).json());
  const formation = Formation.parse((await t.get(`/api/v2/entity_validations/${created.id}/formation`, key)).json());
  const main = validation.data_source_run_batches[0]!;
  let event = 'evt_none';
  if (has('control.events.list')) {
    const page = await t.control.call('control.events.list', { query: { organization_id: organization } });
    event = page.events[0]?.id ?? event;
  }
  const local = (url: string | null) => {
    if (url === null) throw new Error('seedResources: expected a pre-signed URL');
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };
  return {
    organization,
    validation: validation.id,
    batch: main.id,
    run: main.data_source_runs[0]!.id,
    informationRequest: validation.information_requests[0]!.id,
    webhookEndpoint,
    event,
    files: { reports: local(main.consolidated_report_url), legal_reports: local(formation.legal_report_url), documents: local(formation.documents[0]!.url) },
  };
}

/** Every route of bvs-mock (`allRoutes()`), with its path parameters replaced by the real ids. */
export function concreteRoutes(ids: ResourceIds): ConcreteRoute[] {
  return allRoutes().map((route) => ({
    method: route.method,
    path: concretePath(route.pattern, ids),
    pattern: route.pattern,
    operation: route.operation,
    access: route.access.kind,
  }));
}

/** A pattern with its parameters replaced: `:id` by the id its collection holds, `:file` by a signed file URL. */
export function concretePath(pattern: string, ids: ResourceIds): string {
  const file = /^\/_mock\/files\/:organization\/(reports|legal_reports|documents)\/:file$/.exec(pattern);
  if (file) return ids.files[file[1] as keyof ResourceIds['files']];
  return pattern.replace(/\/([a-z_]+)\/:id/g, (_match, collection: string) => `/${collection}/${idFor(collection, ids)}`);
}

function idFor(collection: string, ids: ResourceIds): string {
  switch (collection) {
    case 'entity_validations':
      return ids.validation;
    case 'data_source_run_batches':
      return ids.batch;
    case 'data_source_runs':
      return ids.run;
    case 'information_requests':
    case 'recipient':
      return ids.informationRequest;
    case 'organizations':
      return ids.organization;
    case 'webhook_endpoints':
      return ids.webhookEndpoint;
    case 'events':
      return ids.event;
    case 'sessions':
      // The default session: always there, and never ended (DELETE answers 409).
      return 'default';
    default:
      throw new Error(`concretePath: no id for the collection ${collection}; add it to route-fixtures.ts`);
  }
}
