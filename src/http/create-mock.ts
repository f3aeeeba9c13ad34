import { ChangeFeed, DEFAULT_MAX_STREAM_READERS, MAX_STREAM_READERS_LIMIT } from './change-feed';
import { EmittedJournal } from './emitted-journal';
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_MAX_RUN_WAIT_MS,
  MAX_RUN_WAIT_MS,
  advanceSettled,
  createClock,
  resolveStartTime,
  runUntilSettled,
  systemTime,
  type ClockMode,
  type RunOutcome,
  type SimulatedClock,
  type StartTime,
  type SystemTime,
} from '../clock';
import { OrganizationRegistry } from '../config';
import { WebhookEndpointStore } from '../delivery/webhook-endpoint-store';
import { Engine, IdSource } from '../engine';
import { ScenarioLibrary, generateScenario } from '../engine/scenarios';
import { UrlSigner } from '../reports/url-signer';
import { BvsMockConfig, WebhookEndpointConfig, parseWith } from '../schemas';
import { Deliveries, type DeliveriesOptions } from '../delivery/deliveries';
import { FaultPlan } from '../faults/fault-plan';
import { AccessTokens, type TokenClock } from './access-tokens';
import { AnswerCache } from './answer-cache';
import type { AllowedHostsOption } from './allowed-hosts';
import { BrowserGuard } from './browser-guard';
import { createApiCore, type ApiCore } from './api-core';
import { DEFAULT_BODY_LIMIT, type ApiServices, type DrainOptions } from './api-services';
import { DEFAULT_MAX_PAGE_BYTES, PAGE_BYTES_RANGE } from './page-query';
import { Pacer } from './pacer';
import { RequestJournal } from './request-journal';
import { resetMock } from './reset-mock';
import { VERSION } from '../version';
import { ReceiverCheckStore } from '../probes/receiver-check-store';
import { ClientObserver } from '../faults/client-observer';
import type { JournalEntry } from '../schemas';

/** Limits on what a long-running bvs-mock keeps (docs/fidelity.md, "Retention"); each has a default. */
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

/** Options of {@link createMock}. Every field has a default. */
export interface MockOptions {
  /** Organizations, credentials, settings, endpoints; default: the embedded default organization. */
  config?: BvsMockConfig;
  /** Directories of scenario files added to the built-in library. */
  scenarioDirs?: string[];
  /**
   * Seed of ids and payloads: the same seed, scenarios and requests give byte-identical payloads. Default 1.
   * Given explicitly, it also fixes the key of pre-signed URLs (so URLs are byte-identical too, and
   * forgeable by whoever knows the seed); left out, that key is random per start (docs/fidelity.md).
   */
  seed?: number;
  /**
   * Locks the control API (`/_mock/*` except `GET /_mock/health`, the control API's document, pre-signed files and the recipient page):
   * every call must send `Authorization: Bearer <controlToken>` (`--control-token`). Default: open.
   */
  controlToken?: string;
  clock?: ClockMode;
  /**
   * When the simulated clock starts (`--start-time`): `'now'`, an ISO 8601 string, epoch ms or a Date;
   * `POST /_mock/reset` returns here. Default: the wall clock at start, rounded down to the whole second;
   * with an explicit `seed`, the fixed 2026-01-15T10:00:00.000Z so the same seed gives the same bytes
   * (docs/fidelity.md rows 72, 73).
   */
  startTime?: StartTime;
  /** Speed factor of the realtime clock. */
  speed?: number;
  /**
   * Which clock OAuth access tokens live on (`--token-clock`): `'simulated'` (default: advancing the
   * clock two hours expires them, spec §5.4) or `'wall'` (they live two real hours, so a token the client
   * cached by its own clock survives a drain that moved simulated time hours ahead; docs/fidelity.md row 86).
   */
  tokenClock?: TokenClock;
  /**
   * The machine's wall clock, for what is about real time: the realtime clock, a start time of `'now'`,
   * `tokenClock: 'wall'`, the request times the contract report's client behaviour grades, and `api_latency`
   * faults. Default the real one (`Date.now`, real timers); a test injects its own to drive these without
   * waiting. Either member may be left out.
   */
  wallClock?: Partial<SystemTime>;
  /**
   * Tolerance mode (`--tolerance`): every delivery carries fields and, where the spec lists only the values
   * seen, values the spec does not list, so a client's reader proves tolerant (docs/fidelity.md row 89).
   */
  tolerance?: boolean;
  /** Refuse unknown fields instead of recording them (`--strict`). */
  strict?: boolean;
  /** Answer plain-HTTP requests with `https_required`. Default true. */
  requireHttps?: boolean;
  /** Public base address used in pre-signed and recipient URLs; its host is answered for (`allowedHosts`). */
  publicUrl?: string;
  /**
   * Host names answered for besides IP addresses, `localhost`, `*.localhost`, one-label names (`bvs`) and
   * `*.internal` names (`--allowed-hosts`): a request with another `Host` answers 421 `host_not_allowed`, so
   * a web page cannot reach bvs-mock by rebinding its own name (docs/fidelity.md row 104). `.example.com`
   * allows a domain and every name under it; `'all'` answers any Host. `startServer` adds its listening host
   * and `tlsHostnames`; requests msw intercepts in-process are never checked.
   */
  allowedHosts?: AllowedHostsOption;
  bodyLimit?: number;
  /** Adds an endpoint named `cli` to the default organization, subscribed to every event (`--webhook-url`). */
  webhookUrl?: string;
  /** With `webhookUrl`: authenticate it with this secret (`Authorization: Bearer <secret>`); default none. */
  webhookSecret?: string;
  /** Accept plain-http legacy `webhook_url`s (`--allow-http-webhooks`). */
  allowHttpWebhooks?: boolean;
  /** Accept receivers' self-signed certificates (`--insecure-webhook-tls`). */
  insecureWebhookTls?: boolean;
  /** Real milliseconds a receiver has to answer (default 10 s). */
  deliveryTimeoutMs?: number;
  /** Real milliseconds the instant clock waits for a receiver before going on without it (default 1 s). */
  slowReceiverMs?: number;
  /**
   * Attempts in a row without an answer within `deliveryTimeoutMs` after which a receiver is suspended:
   * one probe every two timeouts still goes, the others are recorded without being sent (default 5; docs/fidelity.md row 100).
   */
  suspendReceiverAfterTimeouts?: number;
  /**
   * Real milliseconds `POST /_mock/clock/run` waits at most before it answers with what is still pending
   * (`--max-run-wait`; default {@link DEFAULT_MAX_RUN_WAIT_MS}; a call's `max_wait_seconds` wins; docs/fidelity.md row 98).
   */
  maxRunWaitMs?: number;
  /** How much state is kept (docs/fidelity.md, "Retention"). */
  retention?: RetentionOptions;
  /**
   * Readers of `GET /_mock/stream` (dashboard tabs, `control.onChange`) served at once (`--max-stream-readers`);
   * one more is answered 503 `service_unavailable` with Retry-After. Default {@link DEFAULT_MAX_STREAM_READERS}
   * (docs/fidelity.md row 101).
   */
  maxStreamReaders?: number;
  /**
   * Bytes of JSON the items of one control list page take at most (`--max-page-bytes`): a page ends before the
   * item that would pass it, with `cut_by_size: true`, and its `next_cursor` goes on from there. Default
   * {@link DEFAULT_MAX_PAGE_BYTES} (docs/fidelity.md row 102).
   */
  maxPageBytes?: number;
  /** Called after every delivery attempt. */
  onDeliveryAttempt?: DeliveriesOptions['onAttempt'];
  /** Called after every request, API and control, with its journal entry (`bvs-mock serve` logs them); `control` says which. */
  onRequest?: (entry: JournalEntry, control: boolean) => void;
  /** Where unexpected errors go; default stderr. */
  logError?: (requestId: string, error: unknown) => void;
}

/** A mock with its parts, before any transport. */
export interface Mock {
  core: ApiCore;
  services: ApiServices;
  engine: Engine;
  clock: SimulatedClock;
  /**
   * Plays everything: runs the clock (manual mode) or waits for it (instant,
   * realtime) and waits for every delivery attempt, retries included, until
   * nothing is scheduled or in flight, or until `maxWaitMs` real milliseconds
   * have passed (no bound unless given); `settled` says which came first.
   */
  drain(options?: DrainOptions): Promise<RunOutcome>;
  /** Stops the clock's real timers. */
  dispose(): void;
}

/**
 * Assembles bvs-mock: clock, organizations, scenario library, engine, endpoint
 * store, tokens, journal and the API core. Transports (node server, msw,
 * express) are added around it. Bad configuration or scenario files throw
 * here, at start, never at request time.
 */
export function createMock(options: MockOptions = {}): Mock {
  if (options.controlToken !== undefined && !/^[\x21-\x7e]+$/.test(options.controlToken)) {
    throw new Error(
      'bvs-mock: the control token (--control-token, BVS_MOCK_CONTROL_TOKEN) must be printable characters without spaces, like a long random string; it is sent as Authorization: Bearer <token>',
    );
  }
  if (options.tokenClock !== undefined && options.tokenClock !== 'simulated' && options.tokenClock !== 'wall') {
    throw new Error(`bvs-mock: tokenClock (--token-clock, BVS_MOCK_TOKEN_CLOCK) must be "simulated" or "wall", got ${JSON.stringify(options.tokenClock)}`);
  }
  const maxStreamReaders = options.maxStreamReaders ?? DEFAULT_MAX_STREAM_READERS;
  if (!Number.isInteger(maxStreamReaders) || maxStreamReaders < 1 || maxStreamReaders > MAX_STREAM_READERS_LIMIT) {
    throw new Error(
      `bvs-mock: maxStreamReaders (--max-stream-readers, BVS_MOCK_MAX_STREAM_READERS) must be a whole number from 1 to ${MAX_STREAM_READERS_LIMIT}, got ${JSON.stringify(options.maxStreamReaders)}; leave it out for ${DEFAULT_MAX_STREAM_READERS}`,
    );
  }
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
  if (!Number.isInteger(maxPageBytes) || maxPageBytes < PAGE_BYTES_RANGE.min || maxPageBytes > PAGE_BYTES_RANGE.max) {
    throw new Error(
      `bvs-mock: maxPageBytes (--max-page-bytes, BVS_MOCK_MAX_PAGE_BYTES) must be a whole number from ${PAGE_BYTES_RANGE.min} to ${PAGE_BYTES_RANGE.max} (64 MiB), got ${JSON.stringify(options.maxPageBytes)}; leave it out for ${DEFAULT_MAX_PAGE_BYTES} (1 MiB)`,
    );
  }
  const seed = options.seed ?? 1;
  const config = options.config ?? BvsMockConfig.parse({});
  const wallClock: SystemTime = { ...systemTime, ...options.wallClock };
  const clock = createClock({
    mode: options.clock ?? 'instant',
    speed: options.speed,
    wallNow: wallClock.wallNow,
    start: resolveStartTime({ startTime: options.startTime, seeded: options.seed !== undefined, wallNow: wallClock.wallNow }),
  });
  const registry = new OrganizationRegistry(config);
  const scenarios = ScenarioLibrary.builtIn();
  for (const dir of options.scenarioDirs ?? []) scenarios.loadDirectory(dir);
  const ids = new IdSource(seed, () => clock.now());
  // Signatures are part of payloads (URLs): an explicit seed fixes their key so runs stay byte-identical;
  // otherwise the key is random, since a key anyone can derive from a printed default lets anyone forge URLs.
  const signingKey = options.seed === undefined ? randomBytes(32).toString('hex') : `bvs-mock:${options.seed}`;
  const signer = new UrlSigner(signingKey, options.publicUrl ?? 'https://127.0.0.1:4010');
  const engine = new Engine({
    clock,
    ids,
    scenarios,
    generate: generateScenario,
    signer,
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
  seedEndpoints();
  const faults = new FaultPlan(seed);
  const logError =
    options.logError ??
    ((requestId: string, error: unknown) => process.stderr.write(`bvs-mock: ${requestId}: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`));
  // Names this instance on its own deliveries, so a delivery pointed at bvs-mock itself is refused, not looped.
  const origin = randomBytes(12).toString('hex');
  // What `GET /_mock/stream` tells open pages; costs nothing while none listens.
  const changes = new ChangeFeed(() => clock.iso(), maxStreamReaders);
  const deliveries = new Deliveries({
    clock,
    ids,
    endpoints,
    registry,
    faults,
    origin,
    userAgent: `bvs-mock/${VERSION}`,
    timeoutMs: options.deliveryTimeoutMs,
    slowReceiverMs: options.slowReceiverMs,
    maxRecords: options.retention?.maxDeliveryRecords,
    maxPendingPerReceiver: options.retention?.maxPendingPerReceiver,
    suspendAfterTimeouts: options.suspendReceiverAfterTimeouts,
    insecureTls: options.insecureWebhookTls,
    onAttempt: options.onDeliveryAttempt,
    onAttemptEnded: () => changes.notify('delivery'),
    onError: (error) => logError('delivery', error),
    seed,
    tolerance: (event) => options.tolerance === true || engine.scenarioFor(event.validationId)?.tolerance === true,
  });
  // Both read what they need during the emission, so an event no receiver gets is never rendered.
  engine.subscribe((event) => deliveries.accept(event), { readsBodyAtOnce: true });
  const emittedEvents = new Map<string, number>();
  const receiverChecks = new ReceiverCheckStore();
  const observer = new ClientObserver();
  engine.subscribe((event) => emittedEvents.set(event.type, (emittedEvents.get(event.type) ?? 0) + 1), { readsBodyAtOnce: true });
  const emitted = new EmittedJournal();
  engine.subscribe(emitted.record, { readsBodyAtOnce: true });
  engine.subscribe(() => changes.notify('emitted'), { readsBodyAtOnce: true });
  // Instant mode waits for deliveries before moving time on: they happen at their events' time, in order.
  // A slow receiver stops being waited for after a bound (docs/fidelity.md, "Slow receivers").
  clock.setInstantBarrier(() => deliveries.instantBarrier());
  const barrier = () => deliveries.instantBarrier();
  const drain = (drainOptions: DrainOptions = {}) => {
    changes.notify('clock');
    return runUntilSettled({ clock, barrier, work: (signal) => deliveries.settled(signal), maxWaitMs: drainOptions.maxWaitMs });
  };
  const advance = (ms: number) => {
    changes.notify('clock');
    return clock.mode === 'manual' ? advanceSettled(clock, ms, barrier) : Promise.resolve(clock.advance(ms));
  };
  const tokens = new AccessTokens(options.tokenClock === 'wall' ? wallClock.wallNow : () => clock.now());
  const answers = new AnswerCache();
  const journal = new RequestJournal(options.retention?.maxJournalEntries);
  const services: ApiServices = {
    engine,
    clock,
    wallClock,
    registry,
    tokens,
    journal,
    scenarios,
    signer,
    endpoints,
    deliveries,
    emittedEvents,
    receiverChecks,
    observer,
    probeTransport: { timeoutMs: options.deliveryTimeoutMs ?? 10_000, insecureTls: options.insecureWebhookTls ?? false },
    emitted,
    changes,
    faults,
    allowHttpWebhooks: options.allowHttpWebhooks ?? false,
    strict: options.strict ?? false,
    requireHttps: options.requireHttps ?? true,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    maxPageBytes,
    pacer: new Pacer(),
    controlToken: options.controlToken ?? null,
    browserGuard: new BrowserGuard({ allowedHosts: options.allowedHosts, publicUrl: options.publicUrl }),
    certificate: null,
    onRequest: options.onRequest,
    reset: () => {
      resetMock({
        deliveries,
        faults,
        engine,
        clock,
        registry,
        endpoints,
        tokens,
        journal,
        answers,
        emittedEvents,
        emitted,
        receiverChecks,
        observer,
        scenarios,
        seedEndpoints,
      });
      changes.notify('reset');
    },
    drain,
    maxRunWaitMs: checkedMaxRunWait(options.maxRunWaitMs),
    advance,
    origin,
    answers,
    logError,
  };
  return { core: createApiCore(services), services, engine, clock, drain, dispose: () => clock.dispose() };
}

/** The bound of `POST /_mock/clock/run` (docs/fidelity.md row 98): a whole number of real milliseconds above 0. */
function checkedMaxRunWait(ms: number | undefined): number {
  if (ms === undefined) return DEFAULT_MAX_RUN_WAIT_MS;
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_RUN_WAIT_MS)
    throw new Error(
      `bvs-mock: maxRunWaitMs (--max-run-wait, BVS_MOCK_MAX_RUN_WAIT) must be whole milliseconds from 1 to ${MAX_RUN_WAIT_MS} (a day), got ${JSON.stringify(ms)}`,
    );
  return ms;
}
