import { createClock, type ClockMode, type SimulatedClock } from '../clock';
import { OrganizationRegistry } from '../config';
import { WebhookEndpointStore } from '../delivery/webhook-endpoint-store';
import { Engine, IdSource } from '../engine';
import { ScenarioLibrary, generateScenario } from '../engine/scenarios';
import { UrlSigner } from '../reports/url-signer';
import { BvsMockConfig } from '../schemas';
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
  /** Where unexpected errors go; default stderr. */
  logError?: (requestId: string, error: unknown) => void;
}

/** A mock with its parts, before any transport. */
export interface Mock {
  core: ApiCore;
  services: ApiServices;
  engine: Engine;
  clock: SimulatedClock;
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
  };
  seedEndpoints();
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
    strict: options.strict ?? false,
    requireHttps: options.requireHttps ?? true,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    reset() {
      engine.reset();
      clock.reset();
      registry.reset();
      endpoints.clear();
      seedEndpoints();
      tokens.clear();
      journal.clear();
    },
    logError: options.logError ?? ((requestId, error) => process.stderr.write(`bvs-mock: ${requestId}: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`)),
  };
  return { core: createApiCore(services), services, engine, clock, dispose: () => clock.dispose() };
}
