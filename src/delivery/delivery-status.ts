import type { DeliveryEndReason, DeliveryStatus } from '../schemas';

/**
 * How a delivery ends, with the reasons each status may carry (docs/fidelity.md rows 15, 99): succeeded
 * has none; failed ran out of retries, or never went (a disabled endpoint, a full backlog); expired lost
 * its endpoint while it waited.
 */
export type DeliveryEnding =
  | { status: 'succeeded'; reason: null }
  | { status: 'failed'; reason: Extract<DeliveryEndReason, 'retries_exhausted' | 'endpoint_disabled' | 'receiver_backlog'> }
  | { status: 'expired'; reason: Extract<DeliveryEndReason, 'endpoint_disabled' | 'endpoint_deleted'> };

/** What a move did: whether the record left pending now (and so its receiver's backlog, for the ended records retention forgets). */
export interface StatusMove {
  leftPending: boolean;
}

const REASONS: Record<DeliveryEnding['status'], ReadonlyArray<DeliveryEndReason | null>> = {
  succeeded: [null],
  failed: ['retries_exhausted', 'endpoint_disabled', 'receiver_backlog'],
  expired: ['endpoint_disabled', 'endpoint_deleted'],
};

/**
 * The one rule for a delivery's status. Every record starts pending and ends once: succeeded, failed or
 * expired (spec §6 Subscription and delivery: never dropped). An ended record may still become succeeded,
 * as an attempt that came after its end may be acknowledged (a redelivery, or a first attempt still
 * queued when a redelivery ended it), but nothing else: a delivery that reached its receiver, or that
 * already failed or expired, does not fail or expire again, and nothing goes back to pending.
 * A move outside the rule is a programming error and throws, naming both statuses.
 */
export function moveStatus(from: DeliveryStatus, to: DeliveryEnding): StatusMove {
  const reasons = Object.hasOwn(REASONS, to.status) ? REASONS[to.status] : undefined;
  if (reasons === undefined) {
    throw new Error(`bvs-mock: delivery: cannot move a delivery to ${JSON.stringify(to.status)}; it ends succeeded, failed or expired`);
  }
  if (!reasons.includes(to.reason)) {
    throw new Error(
      `bvs-mock: delivery: a delivery cannot end ${to.status} with the reason ${JSON.stringify(to.reason)}; ${to.status} takes ${reasons.map((reason) => JSON.stringify(reason)).join(' or ')}`,
    );
  }
  if (from === 'pending') return { leftPending: true };
  if (to.status === 'succeeded' && (from === 'succeeded' || from === 'failed' || from === 'expired')) return { leftPending: false };
  throw new Error(`bvs-mock: delivery: a delivery that is ${JSON.stringify(from)} cannot become ${to.status}; once ended, it can only become succeeded`);
}
