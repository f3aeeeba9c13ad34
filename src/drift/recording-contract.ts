import { bodyFindings, checkExchange } from '../proxy/check-exchange';
import { MASKED } from '../proxy/exchange';
import { routeOf, serviceRouter } from '../proxy/route-of';
import { EVENT_SCHEMAS, EVENT_TYPES, type DriftReportDifference, type EventType, type Recording } from '../schemas';

/** The contract's verdict on what a recording holds: its differences and how many exchanges and deliveries were read. */
export interface RecordingContract {
  differences: DriftReportDifference[];
  exchanges: number;
  deliveries: number;
}

/** Only these of a payload's differences are the contract's to name; the fields present are compared with bvs-mock's play. */
const VALUE_KINDS = new Set(['unseen_value', 'wrong_type', 'invalid_value']);

/** The row of docs/fidelity.md for a value beyond those the spec lists (tolerance mode plays such values). */
const UNSEEN_VALUE_ROW = 89;

/**
 * Checks what the recordings hold against the contract, as `bvs-mock proxy` checks live: each recorded exchange of an
 * API operation (statuses, error bodies and codes, answers checked closed, answer times), and each delivery's first
 * arrival against its event's schema for its values (a status or enum value never seen, a wrong type). Counted once
 * per tree, subject, path and kind.
 */
export function recordingContract(recordings: readonly Recording[]): RecordingContract {
  const router = serviceRouter();
  const counted = new Map<string, DriftReportDifference>();
  const add = (difference: Omit<DriftReportDifference, 'count' | 'verdict' | 'reading'>) => {
    const path = difference.path?.replace(/\[\d+\]/g, '[*]') ?? null;
    const key = [difference.tree_id, difference.subject, path, difference.bvs_mock].join('\u0000');
    const known = counted.get(key);
    if (known !== undefined) known.count++;
    else counted.set(key, { ...difference, path, verdict: difference.row === null ? 'differs' : 'refutes', reading: null, count: 1 });
  };
  let exchanges = 0;
  let deliveries = 0;
  for (const recording of recordings) {
    const treeOf = new Map<string, string>();
    for (const tree of recording.trees) for (const id of [...tree.exchanges, ...tree.deliveries]) treeOf.set(id, tree.tree_id);
    for (const exchange of recording.exchanges) {
      const route = routeOf(router, exchange.method, exchange.path);
      if (route?.document === undefined) continue;
      exchanges++;
      const findings = checkExchange(route, {
        requestId: exchange.request_id,
        operation: exchange.operation,
        method: exchange.method,
        path: exchange.path,
        status: exchange.status,
        requestHeaders: exchange.request_headers,
        requestBody: exchange.request_body,
        answerHeaders: exchange.answer_headers,
        answerBody: exchange.answer_body,
        startedAt: exchange.started_at,
        durationMs: exchange.duration_ms,
      });
      // A value the recording masked (a token, a secret) stands for one the contract took when it was recorded.
      for (const finding of findings.filter((candidate) => candidate.actual !== JSON.stringify(MASKED)))
        add({
          tree_id: treeOf.get(exchange.request_id) ?? null,
          check: 'contract',
          subject: `${finding.operation} ${finding.side} (${finding.kind})`,
          path: finding.path,
          bvs_mock: finding.expected,
          recording: finding.actual,
          row: finding.row,
        });
    }
    for (const delivery of recording.deliveries) {
      if (delivery.attempt !== 1 || !EVENT_TYPES.includes(delivery.event_type as EventType)) continue;
      deliveries++;
      for (const finding of bodyFindings(EVENT_SCHEMAS[delivery.event_type as EventType], delivery.body)) {
        if (!VALUE_KINDS.has(finding.kind)) continue;
        add({
          tree_id: treeOf.get(delivery.id) ?? delivery.tree_id,
          check: 'contract',
          subject: `${delivery.event_type} delivery (${finding.kind})`,
          path: finding.path,
          bvs_mock: finding.expected,
          recording: finding.actual,
          row: finding.kind === 'unseen_value' ? UNSEEN_VALUE_ROW : null,
        });
      }
    }
  }
  return { differences: [...counted.values()], exchanges, deliveries };
}
