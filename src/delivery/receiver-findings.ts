import type { DeliveryAttempt, ReceiverFindings } from '../schemas';
import { triesAmong } from './delivery-policy';
import type { DeliveryRecord } from './delivery-record';

/**
 * Whether an attempt reached the receiver: not the ones bvs-mock recorded without sending anything
 * (a disabled or deleted endpoint, a receiver whose backlog was full or that was suspended;
 * docs/fidelity.md rows 15, 99, 100), which say nothing of how the receiver answers.
 */
function reachedReceiver(attempt: DeliveryAttempt): boolean {
  const error = attempt.error;
  if (error === null) return true;
  return !(error === 'endpoint_disabled' || error === 'endpoint_deleted' || error.startsWith('receiver_backlog') || error.startsWith('receiver_suspended'));
}

/**
 * What each receiver did with its deliveries (the records kept, docs/fidelity.md row 83): how many
 * deliveries and attempts it got, the answers that were not 2xx (or no answer at all), the deliveries
 * that needed more than one attempt, and the answers slower than `slowMs`.
 */
export function receiverFindings(records: Iterable<DeliveryRecord>, slowMs: number): ReceiverFindings[] {
  const byTarget = new Map<string, ReceiverFindings>();
  for (const record of records) {
    const key = `${record.target.endpointId ?? 'legacy'} ${record.target.url}`;
    let findings = byTarget.get(key);
    if (findings === undefined) {
      findings = {
        endpoint_id: record.target.endpointId,
        url: record.target.url,
        organization_id: record.organizationId,
        deliveries: 0,
        attempts: 0,
        not_2xx: 0,
        no_answer: 0,
        retried_deliveries: 0,
        slow_answers: 0,
        slowest_ms: 0,
      };
      byTarget.set(key, findings);
    }
    findings.deliveries += 1;
    const sent = record.attempts.filter(reachedReceiver);
    if (triesAmong(sent) > 1) findings.retried_deliveries += 1;
    for (const attempt of sent) {
      findings.attempts += 1;
      // A truncated answer is not an answer (spec §6 Subscription and delivery, rule 4; docs/fidelity.md row 107).
      if (attempt.response_code === null || attempt.error !== null) findings.no_answer += 1;
      else if (attempt.response_code < 200 || attempt.response_code > 299) findings.not_2xx += 1;
      if (attempt.duration_ms > slowMs) findings.slow_answers += 1;
      findings.slowest_ms = Math.max(findings.slowest_ms, Math.round(attempt.duration_ms));
    }
  }
  return [...byTarget.values()];
}
