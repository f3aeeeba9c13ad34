import type { EventType, WebhookEvent } from '../schemas';

/**
 * One event as the engine emits it: the webhook body (a snapshot taken when
 * the event fired) and what delivery needs to route it. The engine hands these
 * to a sink and never sends anything itself.
 */
export interface EngineEvent<T extends EventType = EventType> {
  /** Position in the engine's emission order, from 1; reset by `reset()`. */
  sequence: number;
  organizationId: string;
  type: T;
  /** The envelope: `type` plus the one resource key (spec §6). */
  body: WebhookEvent<T>;
  /** The validation created through the API that the event belongs to. */
  validationId: string;
  /** Id of the resource carried: batch, run, validation (stakeholder, formation), request, item or assignment. */
  resourceId: string;
  /** Legacy model: the `webhook_url` of the resource the event belongs to, or null (spec §6, Legacy model). */
  legacyWebhookUrl: string | null;
  /** Simulated time of emission. */
  emittedAt: string;
}

/** Receives every event the engine emits, in order. */
export type EventSink = (event: EngineEvent) => void;
