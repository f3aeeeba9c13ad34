import { DataSourceRunStatus } from './data-source-run';
import { parseDuration } from './duration';
import { z } from './zod';

/** The states a scripted outcome can reach (`created` is where every attempt starts). */
export const OUTCOME_STATUSES = ['succeeded', 'temporary_error', 'definitive_error', 'missing_input_data'] as const;

/** One scripted outcome: after `after` ms from the start of the attempt, the run reaches `status`. */
export interface Outcome {
  status: (typeof OUTCOME_STATUSES)[number];
  after: number;
}

/**
 * An outcome as scenario files write it: one key, the status, with the time the
 * attempt takes: `{ succeeded: 20s }`, `{ temporary_error: 15s }`.
 */
export const ScenarioOutcome = z.record(z.string(), z.unknown()).transform((value, context): Outcome => {
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    context.addIssue({
      code: 'custom',
      message: `an outcome has exactly one key, the status (one of ${OUTCOME_STATUSES.join(', ')}), like { succeeded: 20s }; found ${keys.length === 0 ? 'none' : keys.join(', ')}`,
    });
    return z.NEVER;
  }
  const status = keys[0]!;
  if (!(OUTCOME_STATUSES as readonly string[]).includes(status)) {
    context.addIssue({ code: 'custom', path: [status], message: `"${status}" is not one of ${OUTCOME_STATUSES.join(', ')}` });
    return z.NEVER;
  }
  const raw = value[status];
  const after = typeof raw === 'string' || typeof raw === 'number' ? parseDuration(raw) : undefined;
  if (after === undefined) {
    context.addIssue({
      code: 'custom',
      path: [status],
      message: `${JSON.stringify(raw)} is not a duration; write it like 20s, 1m30s, 500ms or a number of seconds`,
    });
    return z.NEVER;
  }
  return { status: DataSourceRunStatus.parse(status) as Outcome['status'], after };
});

/**
 * Checks the order of a run's outcomes: `temporary_error` is always retried so
 * something must follow it; `succeeded` and `definitive_error` end the run, so
 * nothing may follow them.
 */
export function checkOutcomeSequence(outcomes: readonly Outcome[], context: z.core.$RefinementCtx, path: PropertyKey[]): void {
  outcomes.forEach((outcome, index) => {
    const last = index === outcomes.length - 1;
    if (outcome.status === 'temporary_error' && last) {
      context.addIssue({
        code: 'custom',
        path: [...path, index],
        message: 'a temporary_error is retried, so another outcome must follow it (for example { succeeded: 30s })',
      });
    }
    if ((outcome.status === 'succeeded' || outcome.status === 'definitive_error') && !last) {
      context.addIssue({ code: 'custom', path: [...path, index + 1], message: `${outcome.status} ends the run, so no outcome may follow it` });
    }
  });
}
