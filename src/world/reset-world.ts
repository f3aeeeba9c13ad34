import type { EmittedJournal } from './emitted-journal';
import type { SimulatedClock } from '../clock';
import type { OrganizationRegistry } from '../config';
import type { Deliveries } from '../delivery/deliveries';
import type { WebhookEndpointStore } from '../delivery/webhook-endpoint-store';
import type { Engine } from '../engine';
import type { ScenarioLibrary } from '../engine/scenarios';
import type { FaultPlan } from '../faults/fault-plan';
import type { AccessTokens } from './access-tokens';
import type { AnswerCache } from './answer-cache';
import type { RequestJournal } from './request-journal';
import type { ReceiverCheckStore } from '../probes/receiver-check-store';
import type { ClientObserver } from '../faults/client-observer';
import type { ReliedOnLog } from '../contract/relied-on';

/** Every part of a world that holds state a reset returns to its start. */
export interface ResettableParts {
  deliveries: Deliveries;
  faults: FaultPlan;
  engine: Engine;
  clock: SimulatedClock;
  registry: OrganizationRegistry;
  endpoints: WebhookEndpointStore;
  tokens: AccessTokens;
  journal: RequestJournal;
  answers: AnswerCache;
  emittedEvents: Map<string, number>;
  emitted: Pick<EmittedJournal, 'clear'>;
  receiverChecks: Pick<ReceiverCheckStore, 'clear'>;
  observer: Pick<ClientObserver, 'clear'>;
  reliedOn: Pick<ReliedOnLog, 'clear'>;
  scenarios: Pick<ScenarioLibrary, 'clearRunTime'>;
  /** Adds the endpoints of the configuration (and `--webhook-url`) again. */
  seedEndpoints(): void;
}

/**
 * Returns a world to its state at start, as one operation (`POST /_mock/reset`, a test's `afterEach`),
 * in the one order that leaves nothing of the old state behind:
 * 1. the deliveries first: in-flight attempts are aborted and queues dropped, so no old event reaches a
 *    receiver or writes a record once the reset has returned;
 * 2. the engine's trees, the emitted-event counts and the faults, which the old plays and deliveries read,
 *    and the scenarios added at run time (the built-in ones and those of --scenarios stay);
 * 3. the clock, back to its start with no timer left (the old plays' timers go with it);
 * 4. organization settings, and the configured endpoints again, stamped with the start instant;
 * 5. tokens, the request journal and the cached answers last, so nothing rendered from the old state
 *    can be served after it.
 */
export function resetWorld(parts: ResettableParts): void {
  parts.deliveries.reset();
  parts.engine.reset();
  parts.emittedEvents.clear();
  parts.emitted.clear();
  parts.receiverChecks.clear();
  parts.observer.clear();
  parts.reliedOn.clear();
  parts.faults.clear();
  parts.scenarios.clearRunTime();
  parts.clock.reset();
  parts.registry.reset();
  parts.endpoints.clear();
  parts.seedEndpoints();
  parts.tokens.clear();
  parts.journal.clear();
  parts.answers.clear();
}
