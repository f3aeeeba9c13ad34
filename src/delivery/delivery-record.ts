import type { TimerHandle } from '../clock';
import type { DeliveryAttempt, DeliveryEndReason, DeliveryEvent, DeliveryStatus, EventType } from '../schemas';

/** Where a delivery goes: an organization endpoint, or a legacy `webhook_url`. */
export interface DeliveryTarget {
  model: 'endpoint' | 'legacy';
  endpointId: string | null;
  url: string;
  authType: DeliveryEvent['auth_type'];
}

/** A delivery as the delivery layer keeps it. */
export interface DeliveryRecord {
  id: string;
  /** Order of creation: the cursor of `GET /_mock/events` pages. */
  sequence: number;
  type: EventType;
  organizationId: string;
  target: DeliveryTarget;
  status: DeliveryStatus;
  /** Why it ended without success; null while pending and once succeeded (docs/fidelity.md row 99). */
  reason: DeliveryEndReason | null;
  validationId: string;
  resourceId: string;
  createdAt: string;
  /** Simulated epoch ms of the next scheduled attempt, or null. */
  nextAttemptAt: number | null;
  attempts: DeliveryAttempt[];
  /** The label of the request that created its validation, if it had one. */
  label?: string;
  /** The body as sent: serialized once, so every attempt sends the same bytes (and kept only once). */
  body: string;
  /** Deliveries with the same key keep their order (same target, same validation). */
  queueKey: string;
  /** Whether a duplicate fault applies to this delivery's first attempt. */
  duplicate: boolean;
  retryTimer: TimerHandle | null;
  /** Attempts of this record under way; retention never drops a record while one runs. */
  running: number;
}

/** The record as `GET /_mock/events` shows it. */
export function renderDelivery(record: DeliveryRecord): DeliveryEvent {
  return {
    id: record.id,
    type: record.type,
    organization_id: record.organizationId,
    model: record.target.model,
    endpoint_id: record.target.endpointId,
    url: record.target.url,
    auth_type: record.target.authType,
    status: record.status,
    reason: record.reason,
    entity_validation_id: record.validationId,
    resource_id: record.resourceId,
    created_at: record.createdAt,
    next_attempt_at: record.nextAttemptAt === null ? null : new Date(record.nextAttemptAt).toISOString(),
    attempts: record.attempts.map((attempt) => ({ ...attempt })),
    payload: JSON.parse(record.body) as Record<string, unknown>,
    ...(record.label === undefined ? {} : { label: record.label }),
  };
}

/** Receivers are told apart by endpoint, or by URL for the legacy model: one lane, one backlog each. */
export function laneOf(target: DeliveryTarget): string {
  return target.endpointId ?? target.url;
}
