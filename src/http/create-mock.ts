import { createClock, type ClockMode, type SimulatedClock } from '../clock';
import { OrganizationRegistry } from '../config';
import { WebhookEndpointStore } from '../delivery/webhook-endpoint-store';
import { Engine, IdSource } from '../engine';
import { ScenarioLibrary, generateScenario } from '../engine/scenarios';
import { UrlSigner } from '../reports/url-signer';
import { BvsMockConfig, WebhookEndpointConfig, parseWith } from '../schemas';
import { Deliveries, type DeliveriesOptions } from '../delivery/deliveries';
import { FaultPlan } from '../faults/fault-plan';
import { AccessTokens } from './access-tokens';
import { createApiCore, type ApiCore } from './api-core';
import { DEFAULT_BODY_LIMIT, type ApiServices } from './api-services';
import { RequestJournal } from './request-journal';

/** Options of {@link createMock}. Every field has a default. */
export interface MockOptions {
  /** Organizations, credentials, settings, endpoints; default: the embedded default organization. */
  config?: BvsMockConfig;
  /** Directories of scenario files added to the built-in library. */
  scenarioDirs?: string[];
  /** Seed of ids and signatures: the same seed, scenarios and requests give byte-identical payloads. Default 1. */
  seed?: number;
  clock?: ClockMode;
  /** Speed factor of the realtime clock. */
  speed?: number;
  /** Refuse unknown fields instead of recording them (`--strict`). */
  strict?: boolean;
  /** Answer plain-HTTP requests with `https_required`. Default true. */
  requireHttps?: boolean;
  /** Public base address used in pre-signed and recipient URLs. */
  publicUrl?: string;
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
  /** Called after every delivery attempt. */
  onDeliveryAttempt?: DeliveriesOptions['onAttempt'];
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
   * nothing is scheduled or in flight.
   */
  drain(): Promise<void>;
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
  const seed = options.seed ?? 1;
  const config = options.config ?? BvsMockConfig.parse({});
  const clock = createClock({ mode: options.clock ?? 'instant', speed: options.speed });
  const registry = new OrganizationRegistry(config);
  const scenarios = ScenarioLibrary.builtIn();
  for (const dir of options.scenarioDirs ?? []) scenarios.loadDirectory(dir);
  const ids = new IdSource(seed, () => clock.now());
  // Signatures are part of payloads (URLs), so their key follows the seed too.
  const signer = new UrlSigner(`bvs-mock:${seed}`, options.publicUrl ?? 'https://127.0.0.1:4010');
  const engine = new Engine({ clock, ids, scenarios, generate: generateScenario, signer, settings: (id) => registry.settings(id) });
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
  const deliveries = new Deliveries({
    clock,
    ids,
    endpoints,
    registry,
    faults,
    timeoutMs: options.deliveryTimeoutMs,
    insecureTls: options.insecureWebhookTls,
    onAttempt: options.onDeliveryAttempt,
  });
  engine.subscribe((event) => deliveries.accept(event));
  const emittedEvents = new Map<string, number>();
  engine.subscribe((event) => emittedEvents.set(event.type, (emittedEvents.get(event.type) ?? 0) + 1));
  // Instant mode waits for deliveries before moving time on: they happen at their events' time, in order.
  clock.setInstantBarrier(() => (deliveries.isSettled() ? undefined : deliveries.settled()));
  const drain = async () => {
    for (;;) {
      if (clock.mode === 'manual') clock.runAll();
      else await clock.idle();
      await deliveries.settled();
      if (clock.pending === 0) return;
    }
  };
  const tokens = new AccessTokens();
  const journal = new RequestJournal();
  const services: ApiServices = {
    engine,
    clock,
    registry,
    tokens,
    journal,
    scenarios,
    signer,
    endpoints,
    deliveries,
    emittedEvents,
    faults,
    allowHttpWebhooks: options.allowHttpWebhooks ?? false,
    strict: options.strict ?? false,
    requireHttps: options.requireHttps ?? true,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    reset() {
      deliveries.reset();
      emittedEvents.clear();
      faults.clear();
      engine.reset();
      clock.reset();
      registry.reset();
      endpoints.clear();
      seedEndpoints();
      tokens.clear();
      journal.clear();
    },
    drain,
    logError: options.logError ?? ((requestId, error) => process.stderr.write(`bvs-mock: ${requestId}: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`)),
  };
  return { core: createApiCore(services), services, engine, clock, drain, dispose: () => clock.dispose() };
}
