import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROL_PATHS, createControlClient, type ControlClient, type ControlOperationName } from '../../src/client';
import { allRoutes } from '../../src/http';
import { Router } from '../../src/api/router';
import { controlOperations } from '../../src/api/routes/control-operations';
import { BvsMockControl } from '../../src/testing';

// One control contract, three consumers: the typed client is derived from the route table, the testing
// library's control client is built on it, and the README's control API table lists every operation. A
// route added, moved or renamed without its client or its README line fails here.

const operations = controlOperations();
const names = operations.map((route) => route.operation).sort();

/** Deliberately not offered by bvs-mock/testing's control client, each with its reason. */
const NOT_IN_TESTING_CLIENT: Record<string, string> = {
  'control.certificate': 'startBvsMock gives the certificate, and connectBvsMock must already trust it to make any call',
  'control.document.json': 'the document is for generating clients in other languages; openapi/control.yaml ships in the package',
  'control.document.yaml': 'the same document as YAML',
};

test('the typed client knows each control operation by the method and pattern its route declares, and no other', () => {
  expect(Object.keys(CONTROL_PATHS).sort()).toEqual(names);
  for (const route of operations)
    expect({ [route.operation]: CONTROL_PATHS[route.operation as ControlOperationName] }).toEqual({ [route.operation]: [route.method, route.pattern] });
});

test('every control operation is reachable from the typed client: the path it builds routes to that operation', () => {
  const router = new Router(allRoutes());
  const client = createControlClient({ url: 'https://bvs.test' });
  for (const route of operations) {
    const params = Object.fromEntries([...route.pattern.matchAll(/:([a-z_]+)/g)].map((match) => [match[1]!, `${match[1]}_x/y z`]));
    const target = client.target(route.operation as ControlOperationName, { params } as never);
    const path = new URL(target.url).pathname;
    const matched = router.match(target.method, path);
    expect({ operation: route.operation, routed: matched.route.operation, params: matched.params }).toEqual({
      operation: route.operation,
      routed: route.operation,
      params,
    });
  }
});

test('a call without a path parameter its operation needs is refused before anything is sent, naming the parameter', () => {
  const client = createControlClient({ url: 'https://bvs.test' });
  expect(() => client.target('control.events.get', { params: { id: '' } })).toThrow(
    'bvs-mock: control.events.get needs the path parameter "id" (GET /_mock/events/:id)',
  );
});

/** The typed client of a BvsMockControl swapped for one that records each operation asked for and answers a stand-in. */
function recording(control: BvsMockControl): Set<string> {
  const asked = new Set<string>();
  const answer = {
    status: 'ok',
    events: [],
    next_cursor: null,
    settled: true,
    scenarios: [],
    webhook_endpoints: [],
    faults: [],
    receiver_checks: [],
    organizations: [],
    secret: 'whsec_x',
  };
  const client = control.client as { -readonly [K in keyof ControlClient]: ControlClient[K] };
  const record = (operation: string) => asked.add(operation);
  client.call = (async (operation: string) => (record(operation), answer)) as never;
  client.text = (async (operation: string) => (record(operation), '')) as never;
  client.all = (async (operation: string) => (record(operation), [{ type: 'data_source_run_batch.ready', sequence: 1 }])) as never;
  client.open = (async (operation: string) => (record(operation), new Response('', { status: 200 }))) as never;
  return asked;
}

test("bvs-mock/testing's control client reaches every control operation but those it leaves out on purpose", async () => {
  const control = new BvsMockControl({ url: 'https://bvs.test', organizationId: 'acme' });
  const asked = recording(control);
  const calls: Record<string, () => Promise<unknown>> = {
    health: () => control.health(),
    reset: () => control.reset(),
    clock: () => control.clock(),
    advance: () => control.advance(1),
    run: () => control.run(),
    scenarios: () => control.scenarios(),
    addScenario: () => control.addScenario('name: x'),
    removeScenario: () => control.removeScenario('x'),
    settings: () => control.settings({ child_batches_ready: false }),
    endpoints: () => control.endpoints(),
    createEndpoint: () => control.createEndpoint({ name: 'x', url: 'https://example.test/x' }),
    updateEndpoint: () => control.updateEndpoint('whe_x', { enabled: false }),
    deleteEndpoint: () => control.deleteEndpoint('whe_x'),
    setEndpointSecret: () => control.setEndpointSecret('whe_x'),
    events: () => control.events(),
    allEvents: () => control.allEvents(),
    event: () => control.event('evt_x'),
    redeliver: () => control.redeliver('evt_x'),
    checkReceiver: () => control.checkReceiver('whe_x'),
    receiverChecks: () => control.receiverChecks(),
    faults: () => control.faults(),
    addFault: () => control.addFault({ kind: 'api_reset', count: 1 }),
    clearFaults: () => control.clearFaults(),
    revalidate: () => control.revalidate('evl_x'),
    supplyInput: () => control.supplyInput('dsr_x'),
    emitted: () => control.emitted(),
    eventsFor: () => control.eventsFor('evl_x'),
    waitForEvent: () => control.waitForEvent('data_source_run_batch.ready'),
    isSettled: () => control.isSettled('evl_x'),
    waitForSettled: () => control.waitForSettled('evl_x'),
    organizations: () => control.organizations(),
    validations: () => control.validations(),
    validationTree: () => control.validationTree('evl_x'),
    onChange: async () => (await control.onChange(() => undefined))(),
    requests: () => control.requests(),
    report: () => control.report(),
    drift: () => control.drift(),
    createSession: () => control.createSession(),
    snapshot: () => control.snapshot(),
    sessions: () => control.sessions(),
    session: () => control.session('default'),
    endSession: () => control.endSession('ses_00000000000000000000'),
    // A client of its own, with the path of the session: what it is for.
    forSession: async () => expect(control.forSession('ses_1').client.target('control.clock').path).toBe('/_mock/sessions/ses_1/clock'),
    'informationRequest.submit': () => control.informationRequest.submit('irq_x'),
    'informationRequest.analyze': () => control.informationRequest.analyze('irq_x'),
    'informationRequest.assign': () => control.informationRequest.assign('irq_x', { reviewer_email: 'a@b.example' }),
    'informationRequest.completeAssignment': () => control.informationRequest.completeAssignment('irq_x', 'a@b.example'),
    'informationRequest.evaluate': () => control.informationRequest.evaluate('irq_x', 'ok'),
  };
  // Every public method is in the table above, so a method added is a method swept.
  const methods = [BvsMockControl.prototype, Object.getPrototypeOf(BvsMockControl.prototype) as object]
    .flatMap((prototype) => Object.getOwnPropertyNames(prototype))
    .filter((name) => name !== 'constructor' && !['withOrganization', 'scope', 'allEmitted'].includes(name));
  const requestActions = Object.keys(control.informationRequest).map((name) => `informationRequest.${name}`);
  expect([...methods, ...requestActions].sort()).toEqual(Object.keys(calls).sort());
  for (const call of Object.values(calls)) await call();
  expect(names.filter((name) => !asked.has(name))).toEqual(Object.keys(NOT_IN_TESTING_CLIENT).sort());
});

/** The calls of the README's control API table, as `METHOD /path`, each cut at its query or body. */
function readmeControlCalls(): Set<string> {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const section = /^### Control API[^\n]*\n([\s\S]*?)\n#{2,3} /m.exec(readme)?.[1] ?? '';
  const calls = new Set<string>();
  for (const [, span] of section.matchAll(/`([^`]+)`/g)) {
    const call = /^(GET|POST|PATCH|PUT|DELETE) (\/[^\s?[]*)/.exec(span!);
    if (call) calls.add(`${call[1]} ${call[2]}`);
  }
  return calls;
}

test("the README's control API table lists every control operation", () => {
  const listed = readmeControlCalls();
  expect(operations.map((route) => `${route.method} ${route.pattern}`).filter((call) => !listed.has(call))).toEqual([]);
});
