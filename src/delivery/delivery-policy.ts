import type { DeliveryAttempt } from '../schemas';

/** What started an attempt: its record's first, a retry after a failure, a redelivery asked for, or a duplicate fault. */
export type Trigger = DeliveryAttempt['trigger'];

/**
 * What an attempt's trigger decides in each phase of the attempt (prepare, send, settle), so that the
 * phases read one row of {@link TRIGGER_POLICY} instead of comparing triggers.
 */
export interface TriggerPolicy {
  /**
   * Counts as one of the spec's tries (§8: the first attempt and up to 20 retries): toward the retry
   * limit and its backoff, and toward the contract report's deliveries that needed more than one try.
   */
  readonly countsAsTry: boolean;
  /**
   * Prepare: takes the place of the attempt scheduled for the record (a retry, a delay fault's hold), which is
   * cancelled if it has not come yet: one schedule at a time. A duplicate does not: the retry its failed first
   * attempt scheduled still comes, and the record shows when.
   */
  readonly replacesScheduled: boolean;
  /** Prepare: an endpoint disabled or deleted since the event receives nothing (spec §2, §3); the record expires. */
  readonly checksEndpoint: boolean;
  /**
   * Prepare: when the endpoint is gone, the attempt is still recorded, with the reason as its error (someone
   * asked for it and reads its answer); otherwise the record only expires.
   */
  readonly recordsRefusal: boolean;
  /** Send: goes even to a suspended receiver (docs/fidelity.md row 100), as its answer tells whether the receiver is back. */
  readonly passesSuspension: boolean;
  /** Settle: its outcome moves the record: acknowledged ends it succeeded, anything else waits for a retry (spec §6, §8). */
  readonly settlesStatus: boolean;
  /** Settle: is followed by one more attempt with the same body when a duplicate fault applies (spec §6.3). */
  readonly followedByDuplicate: boolean;
}

/**
 * The policy of every trigger (spec §6, §8; docs/fidelity.md rows 15, 48, 100):
 *
 * | trigger         | try | replaces scheduled | checks endpoint | records refusal | passes suspension | settles status | duplicate follows |
 * | --------------- | --- | ------------------ | --------------- | --------------- | ----------------- | -------------- | ----------------- |
 * | first           | yes | yes                | yes             | no              | no                | yes            | yes               |
 * | retry           | yes | yes                | yes             | no              | no                | yes            | no                |
 * | redelivery      | no  | yes                | yes             | yes             | yes               | yes            | no                |
 * | duplicate_fault | no  | no                 | no              | no              | no                | no             | no                |
 */
export const TRIGGER_POLICY: Readonly<Record<Trigger, TriggerPolicy>> = Object.freeze({
  first: Object.freeze({
    countsAsTry: true,
    replacesScheduled: true,
    checksEndpoint: true,
    recordsRefusal: false,
    passesSuspension: false,
    settlesStatus: true,
    followedByDuplicate: true,
  }),
  retry: Object.freeze({
    countsAsTry: true,
    replacesScheduled: true,
    checksEndpoint: true,
    recordsRefusal: false,
    passesSuspension: false,
    settlesStatus: true,
    followedByDuplicate: false,
  }),
  // Someone asked for it (the dashboard, `POST /_mock/events/{id}/redeliver`): it may duplicate, and it is not one of the spec's tries.
  redelivery: Object.freeze({
    countsAsTry: false,
    replacesScheduled: true,
    checksEndpoint: true,
    recordsRefusal: true,
    passesSuspension: true,
    settlesStatus: true,
    followedByDuplicate: false,
  }),
  // The same body once more right after the first (spec §6.3): it follows its first wherever that went, and changes nothing.
  duplicate_fault: Object.freeze({
    countsAsTry: false,
    replacesScheduled: false,
    checksEndpoint: false,
    recordsRefusal: false,
    passesSuspension: false,
    settlesStatus: false,
    followedByDuplicate: false,
  }),
});

/** The policy of a trigger; an unknown one is a programming error, named with the triggers there are. */
export function policyOf(trigger: Trigger): TriggerPolicy {
  const policy = Object.hasOwn(TRIGGER_POLICY, trigger) ? TRIGGER_POLICY[trigger] : undefined;
  if (policy === undefined) {
    throw new Error(`bvs-mock: delivery: no policy for the attempt trigger ${JSON.stringify(trigger)}; triggers are ${Object.keys(TRIGGER_POLICY).join(', ')}`);
  }
  return policy;
}

/** The spec's tries among attempts: the first and the retries, not redeliveries or duplicates. */
export function triesAmong(attempts: readonly Pick<DeliveryAttempt, 'trigger'>[]): number {
  let tries = 0;
  for (const attempt of attempts) if (policyOf(attempt.trigger).countsAsTry) tries += 1;
  return tries;
}
