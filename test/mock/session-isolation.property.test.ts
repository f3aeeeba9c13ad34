import fc from 'fast-check';
import { createMock, type Mock } from '../../src/mock/create-mock';
import { SessionAnswer } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { BUILT_IN_SCENARIO_NAMES, HAPPY_NO_PARTNERS, HAPPY_PARTNERS, INFORMATION_REQUEST, PARTNER_DEFINITIVE_ERROR } from '../support/built-in-tins';
import { callCore, type CoreAnswer, type CoreCall } from '../support/core-call';
import { firstDifference } from '../support/first-difference';
import { startSilentPort, type SilentPort } from '../support/silent-port';
import { ScenarioLibrary } from '../../src/engine/scenarios';

// Nothing one session does reaches another (docs/fidelity.md rows 114 to 118): session B
// plays a fixed script while session A, on the same server and with the same seed, does random things in
// between (validations, clock moves and runs, resets, faults, endpoints, settings, scenarios, revalidations,
// token requests). Everything B shows of itself afterwards, and every answer it gave on the way, is the same
// bytes as B's run on a server where it is alone.
//
// What is not B's to decide is left out of the comparison: its session id (drawn at random per session), the
// milliseconds requests and delivery attempts took (real time) and the random part of its access tokens. The
// wall clock is fixed, so what is stamped with it (attempts' real_at, the report's evidence) compares as it is.

const WALL = Date.parse('2026-05-01T12:00:00Z');
const START = '2026-01-15T10:00:00Z';
const SEED = 42;
/** Two scenarios both sessions may add, by name and TIN: one session's must never be the other's. */
const SHARED_NAME = 'shared-name';
const SHARED_TIN = '22222222-2';
const OTHER_TIN = '11111111-1';
const library = ScenarioLibrary.builtIn();
const BUILT_IN_TINS = BUILT_IN_SCENARIO_NAMES.filter((name) => name !== 'large-tree').map((name) => {
  const scenario = library.byName(name)!;
  return scenario.tins?.[0] ?? scenario.entity.tin;
});

function organization(name: string) {
  return {
    id: 'default',
    api_keys: [`key_${name}`],
    oauth_clients: [{ client_id: `client_${name}`, client_secret: `secret_${name}` }],
    settings: { child_batches_ready: true, legacy_webhook_token: `tok_${name}` },
  };
}

async function startSession(mock: Mock, name: string): Promise<SessionAnswer> {
  const made = await callCore(mock, {
    method: 'POST',
    path: '/_mock/sessions',
    body: { label: name, seed: SEED, clock: { mode: 'manual', start_time: START }, organizations: [organization(name)] },
  });
  if (made.status !== 201) throw new Error(`POST /_mock/sessions: ${made.status} ${made.text}`);
  return SessionAnswer.parse(JSON.parse(made.text));
}

function scenario(name: string, tin: string, entityName: string) {
  return {
    name,
    description: `run-time scenario ${name}`,
    tins: [tin],
    entity: { tin, country: 'CL', category: 'business', name: entityName, runs: [{ type: 'cl/sii', outcomes: [{ succeeded: '5s' }] }] },
  };
}

/** B's fixed script; `base` is its control base, `receiver` where its endpoint points. */
function scriptOfB(base: string, receiver: string): Array<CoreCall | ((previous: CoreAnswer[]) => CoreCall)> {
  const key = 'key_b';
  const create = (tin: string, bearer = key): CoreCall => ({ method: 'POST', path: '/api/v2/entity_validations', body: { tin, country: 'CL' }, bearer });
  const firstValidation = (previous: CoreAnswer[]) => (JSON.parse(previous[1]!.text) as { id: string }).id;
  return [
    { method: 'POST', path: `${base}/webhook_endpoints`, body: { name: 'b-hooks', url: receiver } },
    create(HAPPY_PARTNERS),
    { method: 'POST', path: `${base}/clock/advance`, body: { seconds: 30 } },
    { method: 'POST', path: '/oauth/token', form: 'grant_type=client_credentials&client_id=client_b&client_secret=secret_b' },
    (previous) => create(INFORMATION_REQUEST, (JSON.parse(previous[3]!.text) as { access_token: string }).access_token),
    { method: 'POST', path: `${base}/faults`, body: { kind: 'api_error', code: 'service_unavailable', count: 1, path: '/api/v2/entity_validations' } },
    create(HAPPY_NO_PARTNERS),
    create(HAPPY_NO_PARTNERS),
    { method: 'PATCH', path: `${base}/organizations/default/settings`, body: { child_batches_ready: false } },
    { method: 'POST', path: `${base}/scenarios`, body: scenario(SHARED_NAME, SHARED_TIN, 'Solo B SpA') },
    create(SHARED_TIN),
    { method: 'POST', path: `${base}/clock/run`, body: {} },
    (previous) => ({ method: 'POST', path: `${base}/entity_validations/${firstValidation(previous)}/revalidate`, body: {} }),
    { method: 'POST', path: `${base}/clock/advance`, body: { seconds: 600 } },
    { method: 'POST', path: `${base}/faults`, body: { kind: 'duplicate_delivery', share: 0.5 } },
    create(PARTNER_DEFINITIVE_ERROR),
    { method: 'GET', path: `${base}/entity_validations` },
    { method: 'POST', path: `${base}/clock/run`, body: {} },
  ];
}

/** Everything B's control API shows of it, as JSON text, after its script. */
async function stateOf(mock: Mock, base: string): Promise<Record<string, string>> {
  const read = async (path: string) => {
    const answer = await callCore(mock, { method: 'GET', path: `${base}${path}` });
    if (answer.status !== 200) throw new Error(`GET ${base}${path}: ${answer.status} ${answer.text}`);
    return answer.text;
  };
  const state: Record<string, string> = {};
  for (const path of ['/clock', '/faults', '/webhook_endpoints', '/organizations', '/scenarios', '/receiver-checks', '/report']) state[path] = await read(path);
  for (const path of ['/emitted', '/events', '/requests', '/entity_validations']) state[path] = await read(`${path}?limit=1000`);
  const validations = (JSON.parse(state['/entity_validations']!) as { validations: Array<{ id: string }> }).validations;
  for (const { id } of validations) state[`/entity_validations/${id}`] = await read(`/entity_validations/${id}`);
  return state;
}

/** B's transcript with what is not B's to decide taken out: its session id and real durations. */
function normalized(transcript: unknown, sessionId: string): string {
  return JSON.stringify(transcript, (key, value: unknown) => {
    if ((key === 'duration_ms' || key === 'slowest_ms') && typeof value === 'number') return 0;
    if (typeof value === 'string') {
      // Access tokens are random even under a seed (a seed must not let anyone derive a token).
      const text = value.replaceAll(sessionId, 'ses_B').replace(/^(bvs_at_ses_B\.).+$/, '$1<random>');
      // JSON texts (answers, pages) are normalized inside as well.
      if (text.startsWith('{') || text.startsWith('[')) {
        try {
          return JSON.parse(normalized(JSON.parse(text), sessionId)) as unknown;
        } catch {
          return text;
        }
      }
      return text;
    }
    return value;
  });
}

type ActionOfA =
  | { kind: 'create'; tin: string; byToken: boolean }
  | { kind: 'advance'; seconds: number }
  | { kind: 'run' }
  | { kind: 'reset' }
  | { kind: 'fault'; fault: Record<string, unknown> }
  | { kind: 'clearFaults' }
  | { kind: 'addEndpoint'; live: boolean }
  | { kind: 'deleteEndpoint'; pick: number }
  | { kind: 'settings'; childBatchesReady: boolean }
  | { kind: 'scenario'; name: string; tin: string }
  | { kind: 'revalidate'; pick: number }
  | { kind: 'token' };

const actionOfA: fc.Arbitrary<ActionOfA> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), tin: fc.constantFrom(...BUILT_IN_TINS, SHARED_TIN, OTHER_TIN), byToken: fc.boolean() }),
  fc.record({ kind: fc.constant('advance' as const), seconds: fc.constantFrom(1, 30, 600, 7200) }),
  fc.constant({ kind: 'run' as const }),
  fc.constant({ kind: 'reset' as const }),
  fc.record({
    kind: fc.constant('fault' as const),
    fault: fc.constantFrom<Record<string, unknown>>(
      { kind: 'api_error', code: 'service_unavailable', count: 2 },
      { kind: 'api_error', code: 'rate_limited', retry_after: 1 },
      { kind: 'duplicate_delivery', share: 1 },
      { kind: 'delay_delivery', seconds: 120 },
      { kind: 'token_revoked', count: 1 },
      { kind: 'tolerance', share: 1 },
    ),
  }),
  fc.constant({ kind: 'clearFaults' as const }),
  fc.record({ kind: fc.constant('addEndpoint' as const), live: fc.boolean() }),
  fc.record({ kind: fc.constant('deleteEndpoint' as const), pick: fc.nat(5) }),
  fc.record({ kind: fc.constant('settings' as const), childBatchesReady: fc.boolean() }),
  fc.record({ kind: fc.constant('scenario' as const), name: fc.constantFrom(SHARED_NAME, 'a-only'), tin: fc.constantFrom(SHARED_TIN, OTHER_TIN) }),
  fc.record({ kind: fc.constant('revalidate' as const), pick: fc.nat(5) }),
  fc.constant({ kind: 'token' as const }),
);

/** Session A: what it has made so far, to act on by index. */
interface PlayerA {
  base: string;
  validations: string[];
  endpoints: string[];
  token: string | undefined;
  endpointsAdded: number;
}

/** A's actions that were carried out (2xx), by kind, over every run: the property is known not to hold vacuously. */
const doneByA = new Map<string, number>();

async function playA(mock: Mock, a: PlayerA, action: ActionOfA, urls: { live: string; dead: string }): Promise<void> {
  const status = await actA(mock, a, action, urls);
  if (status !== undefined && status >= 200 && status < 300) doneByA.set(action.kind, (doneByA.get(action.kind) ?? 0) + 1);
}

/** Plays one action of A; answers its status, undefined when there was nothing to act on. */
async function actA(mock: Mock, a: PlayerA, action: ActionOfA, urls: { live: string; dead: string }): Promise<number | undefined> {
  const base = a.base;
  switch (action.kind) {
    case 'create': {
      const answer = await callCore(mock, {
        method: 'POST',
        path: '/api/v2/entity_validations',
        body: { tin: action.tin, country: 'CL' },
        bearer: action.byToken && a.token !== undefined ? a.token : 'key_a',
      });
      if (answer.status === 201) a.validations.push((JSON.parse(answer.text) as { id: string }).id);
      return answer.status;
    }
    case 'advance':
      return (await callCore(mock, { method: 'POST', path: `${base}/clock/advance`, body: { seconds: action.seconds } })).status;
    case 'run':
      return (await callCore(mock, { method: 'POST', path: `${base}/clock/run`, body: {} })).status;
    case 'reset':
      a.validations = [];
      a.endpoints = [];
      a.token = undefined;
      return (await callCore(mock, { method: 'POST', path: `${base}/reset`, body: {} })).status;
    case 'fault':
      return (await callCore(mock, { method: 'POST', path: `${base}/faults`, body: action.fault })).status;
    case 'clearFaults':
      return (await callCore(mock, { method: 'DELETE', path: `${base}/faults` })).status;
    case 'addEndpoint': {
      a.endpointsAdded += 1;
      const body = action.live
        ? { name: `a-live-${a.endpointsAdded}`, url: urls.live }
        : // A dead receiver: every attempt refused, its retries spread over hours of A's clock.
          { name: `a-dead-${a.endpointsAdded}`, url: urls.dead, subscribed_events: ['data_source_run_batch.ready'] };
      const answer = await callCore(mock, { method: 'POST', path: `${base}/webhook_endpoints`, body });
      if (answer.status === 201) a.endpoints.push((JSON.parse(answer.text) as { webhook_endpoint: { id: string } }).webhook_endpoint.id);
      return answer.status;
    }
    case 'deleteEndpoint': {
      if (a.endpoints.length === 0) return undefined;
      const [id] = a.endpoints.splice(action.pick % a.endpoints.length, 1);
      return (await callCore(mock, { method: 'DELETE', path: `${base}/webhook_endpoints/${id}` })).status;
    }
    case 'settings':
      return (
        await callCore(mock, { method: 'PATCH', path: `${base}/organizations/default/settings`, body: { child_batches_ready: action.childBatchesReady } })
      ).status;
    case 'scenario':
      return (await callCore(mock, { method: 'POST', path: `${base}/scenarios`, body: scenario(action.name, action.tin, `Solo A ${action.name}`) })).status;
    case 'revalidate': {
      if (a.validations.length === 0) return undefined;
      const id = a.validations[action.pick % a.validations.length];
      return (await callCore(mock, { method: 'POST', path: `${base}/entity_validations/${id}/revalidate`, body: {} })).status;
    }
    case 'token': {
      const answer = await callCore(mock, {
        method: 'POST',
        path: '/oauth/token',
        form: 'grant_type=client_credentials&client_id=client_a&client_secret=secret_a',
      });
      if (answer.status === 200) a.token = (JSON.parse(answer.text) as { access_token: string }).access_token;
      return answer.status;
    }
  }
}

/** What A's deliveries came to, over every run: some reached the receiver B uses too, some were refused. */
const deliveriesOfA = { succeeded: 0, refusedAttempts: 0 };

async function tallyDeliveriesOfA(mock: Mock, base: string): Promise<void> {
  const page = JSON.parse((await callCore(mock, { method: 'GET', path: `${base}/events?limit=1000` })).text) as {
    events: Array<{ status: string; attempts: Array<{ error: string | null }> }>;
  };
  for (const event of page.events) {
    if (event.status === 'succeeded') deliveriesOfA.succeeded += 1;
    deliveriesOfA.refusedAttempts += event.attempts.filter((attempt) => attempt.error === 'connection_refused').length;
  }
}

function makeMock(): Mock {
  return createMock({ clock: 'manual', seed: 7, startTime: START, allowHttpWebhooks: true, wallClock: { wallNow: () => WALL } });
}

/** B's script on `mock`, A's actions (if any) played before each of its steps; answers B's normalized transcript. */
async function runB(
  mock: Mock,
  receiver: string,
  options: { a?: { dead: string; before: ActionOfA[][] }; meddle?: (base: string) => CoreCall } = {},
): Promise<string> {
  let a: PlayerA | undefined;
  if (options.a !== undefined) {
    const made = await startSession(mock, 'a');
    a = { base: made.control_base, validations: [], endpoints: [], token: undefined, endpointsAdded: 0 };
  }
  const b = await startSession(mock, 'b');
  const answers: CoreAnswer[] = [];
  const steps = scriptOfB(b.control_base, receiver);
  for (const [index, step] of steps.entries()) {
    for (const action of options.a?.before[index] ?? []) await playA(mock, a!, action, { live: receiver, dead: options.a!.dead });
    answers.push(await callCore(mock, typeof step === 'function' ? step(answers) : step));
  }
  for (const action of options.a?.before[steps.length] ?? []) await playA(mock, a!, action, { live: receiver, dead: options.a!.dead });
  if (a !== undefined) await tallyDeliveriesOfA(mock, a.base);
  if (options.meddle !== undefined) await callCore(mock, options.meddle(b.control_base));
  const state = await stateOf(mock, b.control_base);
  return normalized({ answers, state }, b.id);
}

const STEPS_OF_B = scriptOfB('/b', 'http://b').length;
let receiver: WebhookReceiver;
let dead: SilentPort;
let alone: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  dead = await startSilentPort('closed');
  const mock = makeMock();
  try {
    alone = await runB(mock, receiver.url);
  } finally {
    mock.dispose();
  }
});

afterAll(async () => {
  await receiver.close();
  await dead.close();
});

test('B alone plays its script the same way twice, and the script reaches what the comparison is about', async () => {
  const mock = makeMock();
  try {
    expect(firstDifference(await runB(mock, receiver.url), alone)).toBeNull();
  } finally {
    mock.dispose();
  }
  const { answers, state } = JSON.parse(alone) as { answers: CoreAnswer[]; state: Record<string, unknown> };
  // Not vacuous: B created validations (one refused by its own fault), delivered events and has a report.
  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 200, 200, 201, 201, 503, 201, 200, 201, 201, 200, 202, 200, 201, 201, 200, 200]);
  const events = state['/events'] as { events: Array<{ status: string }> };
  expect(events.events.length).toBeGreaterThan(10);
  expect(new Set(events.events.map((event) => event.status))).toContain('succeeded');
  expect((state['/entity_validations'] as { total: number }).total).toBe(5);
});

/** A's actions before each of B's steps in one run certain to deliver some of A's events and have some refused. */
const CERTAIN_TO_DELIVER: ActionOfA[][] = [
  [
    { kind: 'addEndpoint', live: true },
    { kind: 'addEndpoint', live: false },
    { kind: 'create', tin: BUILT_IN_TINS[0]!, byToken: false },
  ],
  [{ kind: 'advance', seconds: 600 }],
  ...Array.from({ length: STEPS_OF_B - 1 }, (): ActionOfA[] => []),
];

test("whatever session A does on the same server, session B's answers and everything its control API shows are the same bytes as B alone", async () => {
  let actionsPlayed = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(actionOfA, { maxLength: 3 }), { minLength: STEPS_OF_B + 1, maxLength: STEPS_OF_B + 1 }), async (before) => {
      const mock = makeMock();
      try {
        const together = await runB(mock, receiver.url, { a: { dead: dead.url, before } });
        actionsPlayed += before.flat().length;
        expect(firstDifference(together, alone)).toBeNull();
      } finally {
        mock.dispose();
      }
    }),
    {
      numRuns: 25,
      // One run certain to deliver some of A's events (a live endpoint) and to have some refused (a dead one), so
      // the checks below that A's deliveries happened never depend on what the random runs drew.
      examples: [[CERTAIN_TO_DELIVER]],
    },
  );
  expect(actionsPlayed).toBeGreaterThan(200);
  expect(deliveriesOfA.succeeded).toBeGreaterThan(0);
  expect(deliveriesOfA.refusedAttempts).toBeGreaterThan(0);
  // Every kind of action was carried out by A, not only tried.
  expect([...doneByA.keys()].sort()).toEqual(
    ['addEndpoint', 'advance', 'clearFaults', 'create', 'deleteEndpoint', 'fault', 'reset', 'revalidate', 'run', 'scenario', 'settings', 'token'].sort(),
  );
});

test('the comparison sees B: one second more on its clock, before its script ends, gives other bytes', async () => {
  const mock = makeMock();
  try {
    const meddled = await runB(mock, receiver.url, { meddle: (base) => ({ method: 'POST', path: `${base}/clock/advance`, body: { seconds: 1 } }) });
    expect(firstDifference(meddled, alone)).toMatch(/^\$/);
  } finally {
    mock.dispose();
  }
});
