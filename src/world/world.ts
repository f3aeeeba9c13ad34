import { randomBytes, randomInt } from 'node:crypto';
import { createClock, resolveStartTime, runUntilSettled, type ClockMode, type RunOutcome, type SimulatedClock, type StartTime } from '../clock';
import type { SystemTime } from '../wall';
import { OrganizationRegistry } from '../config';
import { Deliveries, type DeliveriesOptions } from '../delivery/deliveries';
import { WebhookEndpointStore } from '../delivery/webhook-endpoint-store';
import { Engine, IdSource } from '../engine';
import { ScenarioLibrary, generateScenario } from '../engine/scenarios';
import { ReliedOnLog } from '../contract/relied-on';
import { ClientObserver } from '../faults/client-observer';
import { FaultPlan } from '../faults/fault-plan';
import { ReceiverCheckStore } from '../probes/receiver-check-store';
import { UrlSigner } from '../reports/url-signer';
import { BvsMockConfig, WebhookEndpointConfig, parseWith, resolveReadings, type Readings, type Scenario } from '../schemas';
import { VERSION } from '../version';
import { AccessTokens, type TokenClock } from './access-tokens';
import { AnswerCache } from './answer-cache';
import { ChangeFeed } from './change-feed';
import { EmittedJournal } from './emitted-journal';
import { RequestJournal } from './request-journal';
import { resetWorld } from './reset-world';
import { readWorldSnapshot, restoreWorldState } from './world-restore';

/** The largest seed (`--seed`, a session's `seed`): a whole number from 0 up to it. */
export const MAX_SEED = 2 ** 31 - 1;

/** Options of {@link World.drain}. */
export interface DrainOptions {
  /** Real milliseconds to wait at most; default: until nothing is scheduled or in flight, however long. */
  maxWaitMs?: number;
}

/** Limits on what a long-running world keeps (docs/fidelity.md row 59); each has a default. */
export interface RetentionOptions {
  /** Main validations kept with their trees; the oldest settled ones are evicted first. */
  maxValidations?: number;
  /** Delivery records kept; the oldest ended ones go first. */
  maxDeliveryRecords?: number;
  /**
   * Deliveries one receiver (endpoint or legacy URL) may have pending; one more fails at once with
   * `reason: receiver_backlog` (`--max-pending-per-receiver`, default 10,000; docs/fidelity.md row 99).
   */
  maxPendingPerReceiver?: number;
  /** Journal entries of `GET /_mock/requests` kept. */
  maxJournalEntries?: number;
}

/** What one world is made of; `createMock`'s options (src/mock/create-mock.ts) document each field. */
export interface WorldOptions {
  config?: BvsMockConfig;
  scenarioDirs?: string[];
  seed?: number;
  clock?: ClockMode;
  startTime?: StartTime;
  speed?: number;
  tokenClock?: TokenClock;
  tolerance?: boolean;
  publicUrl?: string;
  /** Where this world's `/_mock` paths are reached, for the URLs it gives out: `/_mock/sessions/{id}` for a session; default `/_mock`. */
  mount?: string;
  /** Refuse unknown request fields instead of recording them (`--strict`, a session's `strict`). */
  strict?: boolean;
  /**
   * Readings played where the spec contradicts itself (`--reading`, a session's `readings`), over the configuration's
   * `readings:`; each left out is bvs-mock's default. An unknown name or value throws.
   */
  readings?: Readonly<Record<string, string>>;
  /** Put into this world's access tokens (a session's id), so a token finds its session. */
  tokenTag?: string;
  /** Scenarios this world plays besides the built-in ones and `scenarioDirs`' (a session's `scenarios`); a reset keeps them. */
  scenarios?: Array<{ scenario: Scenario; source: string }>;
  webhookUrl?: string;
  webhookSecret?: string;
  insecureWebhookTls?: boolean;
  deliveryTimeoutMs?: number;
  slowReceiverMs?: number;
  suspendReceiverAfterTimeouts?: number;
  retention?: RetentionOptions;
  /** The machine's wall clock (`MockOptions.wallClock`): the realtime clock, a start time of `now`, wall-clock tokens, request times, injected latency. */
  wallClock: SystemTime;
  /** Readers of the world's change feed served at once (checked by `createMock`). */
  maxStreamReaders: number;
  onDeliveryAttempt?: DeliveriesOptions['onAttempt'];
  /** The name of the process on its own deliveries: a request carrying it is a delivery loop. */
  origin: string;
  logError: (requestId: string, error: unknown) => void;
  /**
   * A world's snapshot (`snapshotWorld`, as a document or parsed from JSON): the new world goes on exactly
   * where it stood, and its seed, clock (start, instant, mode, speed) and organizations are the snapshot's,
   * not these options'. A newer format, or one that does not hold together, throws and nothing is left running.
   */
  snapshot?: unknown;
}

/**
 * One simulated world: organizations and credentials, validations, endpoints, delivery records and lanes,
 * its own clock, faults, the journal and what the contract report reads, receiver checks, scenarios added
 * at run time and its own id source. Made by {@link createWorld}, as many times as wanted: two worlds share
 * nothing, and {@link World.dispose} is all it takes to end one.
 */
export interface World {
  /** The seed of this world's ids and payloads: the one given, or the one drawn at its start (`GET /_mock/health`). */
  readonly seed: number;
  /** Refuse unknown request fields instead of recording them (`--strict`). */
  readonly strict: boolean;
  /** Tolerance mode (`--tolerance`, a session's `tolerance`): deliveries and API answers carry fields and values the spec does not list. */
  readonly tolerance: boolean;
  /** The readings this world plays (src/schemas/readings.ts); a snapshot carries them. */
  readonly readings: Readings;
  readonly clock: SimulatedClock;
  /** The machine's wall clock this world reads where time is real (see {@link WorldOptions.wallClock}). */
  readonly wallClock: SystemTime;
  readonly registry: OrganizationRegistry;
  readonly scenarios: ScenarioLibrary;
  readonly ids: IdSource;
  readonly signer: UrlSigner;
  readonly engine: Engine;
  readonly endpoints: WebhookEndpointStore;
  readonly faults: FaultPlan;
  readonly deliveries: Deliveries;
  readonly tokens: AccessTokens;
  /** Serialized answers of pure reads (read-route), this world's own. */
  readonly answers: AnswerCache;
  readonly journal: RequestJournal;
  /** The events emitted since the last reset, without bodies (`GET /_mock/emitted`). */
  readonly emitted: EmittedJournal;
  /** How many events of each type the engine emitted since the last reset (the contract report). */
  readonly emittedEvents: Map<string, number>;
  /** Receiver checks run through the control API since the last reset. */
  readonly receiverChecks: ReceiverCheckStore;
  /** What clients did after injected API faults (the contract report's client behaviour). */
  readonly observer: ClientObserver;
  /** The choices of bvs-mock the client's answers and deliveries exercised (the contract report's `relied_on`). */
  readonly reliedOn: ReliedOnLog;
  /** Notices of change for `GET /_mock/stream` (the dashboard's live updates). */
  readonly changes: ChangeFeed;
  /**
   * Moves the clock `ms` forward and answers how many timers fired; a manual clock moves instant by
   * instant, waiting for the deliveries each instant starts (docs/fidelity.md row 75).
   */
  advance(ms: number): Promise<number>;
  /**
   * Runs the clock and waits for deliveries until nothing is left, or for at most `maxWaitMs` real
   * milliseconds (`POST /_mock/clock/run`, docs/fidelity.md row 98); `settled` says which came first.
   */
  drain(options?: DrainOptions): Promise<RunOutcome>;
  /** Empties every state and moves the clock back to its start (`POST /_mock/reset`), in the order of reset-world.ts. */
  reset(): void;
  /** Cancels what is pending and stops the clock's real timers; the world answers nothing after it. */
  dispose(): void;
}

/** Builds one world from its options; bad configuration or scenario files throw here, never later. */
export function createWorld(options: WorldOptions): World {
  const restoring = options.snapshot === undefined ? undefined : readWorldSnapshot(options.snapshot);
  // Unseeded, each world draws its own seed (reported, so the run can be replayed): two worlds started in the
  // same second never give the same ids (docs/fidelity.md row 113). Given, the same seed gives the same bytes.
  const seed = restoring?.seed ?? options.seed ?? randomInt(0, MAX_SEED + 1);
  const config = restoring?.organizations.configuration ?? options.config ?? BvsMockConfig.parse({});
  // A restored world's clock stays manual, with nothing live, until the whole snapshot is in (world-restore.ts).
  const clock = createClock({
    mode: restoring === undefined ? (options.clock ?? 'instant') : 'manual',
    speed: restoring?.clock.speed ?? options.speed,
    wallNow: options.wallClock.wallNow,
    start: restoring?.clock.start ?? resolveStartTime({ startTime: options.startTime, seeded: options.seed !== undefined, wallNow: options.wallClock.wallNow }),
  });
  // A snapshot plays on under the readings it was taken with (one from before readings existed: the defaults).
  const readings = restoring === undefined ? resolveReadings(options.config?.readings, options.readings) : resolveReadings(restoring.readings);
  const registry = new OrganizationRegistry(config);
  const scenarios = ScenarioLibrary.builtIn();
  for (const dir of options.scenarioDirs ?? []) scenarios.loadDirectory(dir);
  for (const { scenario, source } of options.scenarios ?? []) {
    const added = scenarios.add(scenario, { source, permanent: true });
    if (!added.ok) throw new Error(`bvs-mock: ${source}: ${added.issues.map((issue) => issue.message).join('; ')}`);
  }
  const ids = new IdSource(seed, () => clock.now());
  // Signatures are part of payloads (URLs): an explicit seed fixes their key so runs stay byte-identical;
  // otherwise the key is random, since a key anyone can derive from a printed default lets anyone forge URLs.
  const signingKey = restoring?.signing_key ?? (options.seed === undefined ? randomBytes(32).toString('hex') : `bvs-mock:${options.seed}`);
  const signer = new UrlSigner(signingKey, options.publicUrl ?? 'https://127.0.0.1:4010', options.mount);
  const engine = new Engine({
    clock,
    ids,
    scenarios,
    generate: generateScenario,
    signer,
    readings,
    settings: (id) => registry.settings(id),
    maxValidations: options.retention?.maxValidations,
  });
  const endpoints = new WebhookEndpointStore(ids, clock);
  const seedEndpoints = () => {
    for (const organization of registry.list()) for (const endpoint of organization.webhook_endpoints) endpoints.add(organization.id, endpoint);
    if (options.webhookUrl !== undefined) {
      const auth = options.webhookSecret === undefined ? { auth_type: 'none' as const } : { auth_type: 'secret' as const, secret: options.webhookSecret };
      const endpoint = parseWith(WebhookEndpointConfig, { name: 'cli', url: options.webhookUrl, ...auth });
      if (!endpoint.ok) throw new Error(`--webhook-url ${options.webhookUrl}: ${endpoint.issues.map((issue) => issue.message).join('; ')}`);
      endpoints.add(registry.defaultId, endpoint.value);
    }
  };
  if (restoring === undefined) seedEndpoints();
  const faults = new FaultPlan(seed);
  // What `GET /_mock/stream` tells open pages; costs nothing while none listens.
  const changes = new ChangeFeed(() => clock.iso(), options.maxStreamReaders);
  const deliveries = new Deliveries({
    clock,
    wallNow: options.wallClock.wallNow,
    ids,
    endpoints,
    registry,
    faults,
    origin: options.origin,
    readings,
    userAgent: `bvs-mock/${VERSION}`,
    timeoutMs: options.deliveryTimeoutMs,
    slowReceiverMs: options.slowReceiverMs,
    maxRecords: options.retention?.maxDeliveryRecords,
    maxPendingPerReceiver: options.retention?.maxPendingPerReceiver,
    suspendAfterTimeouts: options.suspendReceiverAfterTimeouts,
    insecureTls: options.insecureWebhookTls,
    onAttempt: options.onDeliveryAttempt,
    onAttemptEnded: () => changes.notify('delivery'),
    onError: (error) => options.logError('delivery', error),
    seed,
    tolerance: (event) => options.tolerance === true || engine.scenarioFor(event.validationId)?.tolerance === true,
    labelOf: (validationId) => engine.labelOf(validationId),
  });
  // Both read what they need during the emission, so an event no receiver gets is never rendered.
  const reliedOn = new ReliedOnLog();
  engine.subscribe(
    (event) => {
      const accepted = deliveries.accept(event);
      // What the client's receivers got is what it may rely on (the contract report's relied_on).
      if (accepted !== undefined)
        reliedOn.observeDelivery({
          type: event.type,
          resourceId: event.resourceId,
          emittedAt: event.emittedAt,
          envelope: event.body,
          body: accepted.body,
          deliveries: accepted.records,
        });
    },
    { readsBodyAtOnce: true },
  );
  const emittedEvents = new Map<string, number>();
  engine.subscribe((event) => emittedEvents.set(event.type, (emittedEvents.get(event.type) ?? 0) + 1), { readsBodyAtOnce: true });
  const emitted = new EmittedJournal();
  engine.subscribe(emitted.record, { readsBodyAtOnce: true });
  engine.subscribe(() => changes.notify('emitted'), { readsBodyAtOnce: true });
  // Time waits for deliveries before it moves on (instant mode, advance, run): they happen at their events' time, in order.
  // A slow receiver stops being waited for after a bound (docs/fidelity.md row 60).
  clock.setBarrier(() => deliveries.instantBarrier());
  const world: World = {
    seed,
    strict: options.strict ?? false,
    tolerance: options.tolerance === true,
    readings,
    clock,
    wallClock: options.wallClock,
    registry,
    scenarios,
    ids,
    signer,
    engine,
    endpoints,
    faults,
    deliveries,
    tokens: new AccessTokens(options.tokenClock === 'wall' ? options.wallClock.wallNow : () => clock.now(), options.tokenTag),
    answers: new AnswerCache(),
    journal: new RequestJournal(options.retention?.maxJournalEntries),
    emitted,
    emittedEvents,
    receiverChecks: new ReceiverCheckStore(),
    observer: new ClientObserver(),
    reliedOn,
    changes,
    advance: (ms) => {
      changes.notify('clock');
      // Realtime follows the wall clock, which waits for nobody; the other modes wait at the barrier before time moves.
      return clock.mode === 'realtime' ? Promise.resolve(clock.advance(ms)) : clock.runUntil(clock.now() + ms);
    },
    drain: (drainOptions = {}) => {
      changes.notify('clock');
      return runUntilSettled({ clock, work: (signal) => deliveries.settled(signal), maxWaitMs: drainOptions.maxWaitMs });
    },
    reset: () => {
      resetWorld({ ...world, seedEndpoints });
      changes.notify('reset');
    },
    dispose: () => {
      deliveries.reset();
      clock.dispose();
      changes.close();
    },
  };
  if (restoring !== undefined) restoreWorldState(world, restoring);
  return world;
}
