import { buildOpenApiDocument } from '../../openapi';
import { EVENT_TYPES } from '../../schemas';
import { jsonResponse } from '../core-types';
import type { Route } from '../router';

let operationIds: string[] | undefined;

/** The operationIds of the document: exactly the API's operations (a test keeps routes and document equal). */
function documentedOperations(): string[] {
  operationIds ??= Object.values(buildOpenApiDocument().paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string }>).map((operation) => operation.operationId ?? ''),
  );
  return operationIds;
}

/**
 * `GET /_mock/report`: the contract report of the run so far (DESIGN.md, user 3):
 * which API operations the client called and which it never did, which event
 * types were emitted and how their deliveries ended, and the contract
 * violations found in the client's requests.
 */
export const reportRoute: Route = {
  method: 'GET',
  pattern: '/_mock/report',
  operation: 'control.report',
  access: { kind: 'control' },
  handle(context) {
    const { journal, deliveries, emittedEvents } = context.services;
    const calls = journal.operationCounts();
    const operations = documentedOperations();
    const byType = new Map<string, Record<string, number>>();
    for (const delivery of deliveries.list()) {
      const counts = byType.get(delivery.type) ?? { pending: 0, succeeded: 0, failed: 0, expired: 0 };
      counts[delivery.status] = (counts[delivery.status] ?? 0) + 1;
      byType.set(delivery.type, counts);
    }
    const violations = journal.list({ violationsOnly: true });
    return jsonResponse(200, {
      operations: {
        exercised: Object.fromEntries(operations.filter((operation) => calls[operation] !== undefined).map((operation) => [operation, calls[operation]])),
        not_exercised: operations.filter((operation) => calls[operation] === undefined),
      },
      events: {
        emitted: Object.fromEntries(EVENT_TYPES.filter((type) => emittedEvents.has(type)).map((type) => [type, emittedEvents.get(type)])),
        not_emitted: EVENT_TYPES.filter((type) => !emittedEvents.has(type)),
        deliveries: Object.fromEntries(byType),
      },
      violations: {
        count: journal.violationCount(),
        requests: violations.slice(-100).map((entry) => ({ id: entry.id, method: entry.method, path: entry.path, status: entry.status, violations: entry.violations })),
      },
    });
  },
};
