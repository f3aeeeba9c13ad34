import type { Deliveries } from '../delivery/deliveries';
import { MAX_REQUESTS_PER_SECOND } from '../faults/client-observer';
import { EVENT_TYPES, type ClientBehaviourFinding, type ContractReport, type EndpointReceiverCheck, type JournalEntry, type ReliedOnChoice } from '../schemas';

/** What the contract report reads: the request journal, the deliveries and the events emitted since the last reset. */
export interface ContractReportSources {
  /** The API's documented operations (their operationIds), in the document's order: what "not exercised" lists. */
  operations: readonly string[];
  /** Those of them at paths of bvs-mock's choosing (`x-bvs-mock-extension`): counted apart from the spec's. */
  extensions: readonly string[];
  journal: {
    operationCounts(): Record<string, number>;
    list(options: { violationsOnly: true }): JournalEntry[];
    violationCounts(): { requests: number; issues: number };
  };
  deliveries: Pick<Deliveries, 'countsByType' | 'receiverFindings'>;
  emittedEvents: ReadonlyMap<string, number>;
  receiverChecks: { list(): EndpointReceiverCheck[] };
  observer: { list(): ClientBehaviourFinding[] };
  /** The choices of bvs-mock the run exercised (src/contract/relied-on.ts). */
  reliedOn: { list(): ReliedOnChoice[] };
}

/** The contract report of a run so far (`GET /_mock/report`, docs/design.md user 3); its schema: src/schemas/report-answers.ts. */
export type { ContractReport };

/** An answer slower than this is reported as slow: the same second after which the instant clock stops waiting (docs/fidelity.md rows 60, 83). */
export const QUICK_ANSWER_MS = 1_000;

/** Requests with violations the report lists in full: the most recent ones (the count covers them all). */
const REPORTED_VIOLATING_REQUESTS = 100;

/**
 * Which API operations the client called and which it never did, which event types were emitted and how
 * their deliveries ended, and the contract violations found in the client's requests.
 */
export function buildContractReport({
  operations,
  extensions,
  journal,
  deliveries,
  emittedEvents,
  receiverChecks,
  observer,
  reliedOn,
}: ContractReportSources): ContractReport {
  const calls = journal.operationCounts();
  const violating = journal.list({ violationsOnly: true }).slice(-REPORTED_VIOLATING_REQUESTS);
  const coverage = (listed: readonly string[]) => ({
    exercised: Object.fromEntries(listed.filter((operation) => calls[operation] !== undefined).map((operation) => [operation, calls[operation]!])),
    not_exercised: listed.filter((operation) => calls[operation] === undefined),
  });
  return {
    operations: {
      // The spec's operations only: the extensions are bvs-mock's own paths, which the real service may not have.
      ...coverage(operations.filter((operation) => !extensions.includes(operation))),
      extensions: coverage(extensions),
    },
    events: {
      emitted: Object.fromEntries(EVENT_TYPES.filter((type) => emittedEvents.has(type)).map((type) => [type, emittedEvents.get(type)!])),
      not_emitted: EVENT_TYPES.filter((type) => !emittedEvents.has(type)),
      deliveries: Object.fromEntries(deliveries.countsByType()),
    },
    violations: {
      violating_requests: journal.violationCounts().requests,
      issues: journal.violationCounts().issues,
      requests: violating.map(({ id, method, path, status, violations, violations_omitted, label }) => ({
        id,
        method,
        path,
        status,
        violations,
        ...(violations_omitted === undefined ? {} : { violations_omitted }),
        ...(label === undefined ? {} : { label }),
      })),
    },
    receivers: { quick_answer_ms: QUICK_ANSWER_MS, findings: deliveries.receiverFindings(QUICK_ANSWER_MS) },
    receiver_checks: receiverChecks.list().map(({ id, endpoint_id, report }) => ({
      id,
      endpoint_id,
      url: report.url,
      outcome: report.outcome,
      summary: report.summary,
      passed: report.passed,
      failed: report.failed,
      skipped: report.skipped,
      failures: report.results
        .filter((result) => result.outcome === 'fail')
        .map((result) => ({ check: result.check, rule: result.rule, reason: result.reason ?? '' })),
    })),
    client_behaviour: {
      note: 'What the client did after the faults injected into its API answers (POST /_mock/faults), and, faults or not, whether it polled or asked for a new token before every call. Waits are measured in real time, as the client waits: the simulated clock does not move them.',
      max_requests_per_second: MAX_REQUESTS_PER_SECOND,
      findings: observer.list(),
    },
    relied_on: reliedOn.list(),
  };
}
