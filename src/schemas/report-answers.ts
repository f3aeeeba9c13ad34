import { ApiErrorIssue } from './api-error';
import { DeliveryCounts } from './delivery-answers';
import { EventTypeName } from './event-types';
import { idOf } from './ids';
import { outbound } from './outbound';
import { CutBySize, NextCursor } from './page-cursor';
import { Timestamp } from './primitives';
import { LabelField } from './label-field';
import { z } from './zod';

/**
 * What the control API answers about the client under test: the journal of its API requests
 * (`GET /_mock/requests`), and the contract report built from what it did (`GET /_mock/report`).
 */

/** How many violations of a request the journal counted and did not keep; absent when it kept them all (docs/fidelity.md row 96). */
const ViolationsOmitted = z
  .number()
  .int()
  .positive()
  .optional()
  .openapi({ description: 'How many more violations the request had than `violations` lists (at most 100 are kept); absent when it lists them all.' });

/** One API request as the journal records it (`GET /_mock/requests`). */
export const JournalEntry = outbound(
  z.strictObject({
    id: z.string(),
    at: Timestamp,
    method: z.string(),
    path: z.string(),
    operation: z.string().nullable().openapi({ description: 'The operationId of the API document; null when no operation matched.' }),
    organization_id: z.string().nullable(),
    status: z.number().int(),
    duration_ms: z.number().nonnegative(),
    violations: z.array(ApiErrorIssue).openapi({
      description:
        'Contract violations found in the request, answered or tolerated, at their JSON paths: at most 100, each path and message at most 1,000 characters (docs/fidelity.md row 96).',
    }),
    violations_omitted: ViolationsOmitted,
    label: LabelField,
    body_bytes: z.number().int().positive().optional().openapi({ description: 'Bytes of the request body; absent when it had none.' }),
    body: z.unknown().optional().openapi({
      description:
        "The request body, parsed: JSON, or a form's fields; secrets (fields named like secret, password or token) shown as ****1234, their last 4 characters. Absent when there was none, it was neither JSON nor a form, or larger than 4 KiB (`body_bytes` says) (docs/fidelity.md row 82).",
    }),
  }),
  'JournalEntry',
);

export const JournalPage = outbound(z.strictObject({ requests: z.array(JournalEntry), next_cursor: NextCursor, cut_by_size: CutBySize }), 'JournalPage');

/** What each receiver of the client did with its deliveries (docs/fidelity.md row 83). */
export const ReceiverFindings = outbound(
  z.strictObject({
    endpoint_id: idOf('whe').nullable(),
    url: z.string(),
    organization_id: z.string(),
    deliveries: z.number().int(),
    attempts: z.number().int(),
    not_2xx: z.number().int().openapi({ description: 'Answers with a status outside 2xx.' }),
    no_answer: z.number().int().openapi({
      description: 'Attempts without a whole answer: refused, reset, timed out, or cut short after its head (a truncated answer is not an answer).',
    }),
    retried_deliveries: z.number().int().openapi({ description: 'Deliveries that needed more than one attempt.' }),
    slow_answers: z.number().int().openapi({ description: 'Answers slower than `quick_answer_ms`.' }),
    slowest_ms: z.number().nonnegative(),
  }),
  'ReceiverFindings',
);

/** What a client did after a fault bvs-mock injected into an API answer, graded (docs/fidelity.md row 90); or a pace the spec implies that it broke, faults or not (polling, token reuse). */
export const ClientBehaviourFinding = outbound(
  z.strictObject({
    check: z.enum(['retry-after', 'backoff', 'token-renewal', 'rate', 'polling', 'token-reuse']),
    rule: z.string(),
    outcome: z.enum(['pass', 'fail']),
    message: z.string(),
    evidence: z.array(
      outbound(
        z.strictObject({
          request_id: z.string(),
          at: Timestamp.openapi({ description: 'Real (wall-clock) time the request arrived: client waits are real time.' }),
          method: z.string(),
          path: z.string(),
          status: z.number().int(),
          fault: z.string().nullable().openapi({ description: 'The fault injected into its answer, if one was.' }),
        }),
      ),
    ),
  }),
  'ClientBehaviourFinding',
);

/**
 * One choice of bvs-mock, where the spec is silent or unsure, that the client's run exercised: the docs/fidelity.md
 * row that writes it down, and where it was first seen (the contract report's `relied_on`).
 */
export const ReliedOnChoice = outbound(
  z.strictObject({
    row: z.number().int().positive().openapi({ description: 'The row of docs/fidelity.md that writes the choice down.' }),
    choice: z.string().openapi({ description: "bvs-mock's choice, in a sentence: what the real service may do otherwise." }),
    seen: outbound(
      z.strictObject({
        count: z.number().int().positive().openapi({ description: 'How many answers and deliveries of the run exercised it.' }),
        first: outbound(
          z.strictObject({
            at: Timestamp.openapi({ description: 'Simulated time of the first occurrence.' }),
            request_id: z.string().optional().openapi({ description: 'The API request whose answer (or call) exercised it.' }),
            request: z.string().optional().openapi({ description: 'That request: method and path.' }),
            event: EventTypeName.optional().openapi({ description: 'The event, delivered to a receiver of the client, that carried it.' }),
            resource_id: z.string().optional().openapi({ description: "The event's resource." }),
            delivery_id: z.string().optional().openapi({ description: 'The delivery record (`evt_`) of that event (`GET /_mock/events`).' }),
            report: z.string().optional().openapi({ description: 'In a suite-level report: the report (test file) it was first seen in.' }),
          }),
        ).openapi({ description: 'The first occurrence: a request, or an event delivered to the client.' }),
      }),
    ),
  }),
  'ReliedOnChoice',
);

/** The contract report of a run so far (`GET /_mock/report`, docs/design.md user 3). */
export const ContractReport = outbound(
  z.strictObject({
    operations: outbound(
      z.strictObject({
        exercised: z.record(z.string(), z.number().int()).openapi({ description: "Calls by operationId, of the spec's operations." }),
        not_exercised: z.array(z.string()),
        extensions: outbound(
          z.strictObject({
            exercised: z.record(z.string(), z.number().int()),
            not_exercised: z.array(z.string()),
          }),
        ).openapi({
          description:
            "The operations at paths of bvs-mock's choosing (`x-bvs-mock-extension`, docs/fidelity.md row 18), counted apart: the real service may not have them, so a client that relies on one should know.",
        }),
      }),
    ),
    events: outbound(
      z.strictObject({
        emitted: z.record(z.string(), z.number().int()).openapi({ description: 'Events emitted by type.' }),
        not_emitted: z.array(EventTypeName),
        deliveries: z.record(z.string(), DeliveryCounts).openapi({ description: 'Delivery records by event type and status.' }),
      }),
    ),
    violations: outbound(
      z.strictObject({
        violating_requests: z.number().int().openapi({ description: 'Requests with at least one violation, counted once each.' }),
        issues: z.number().int().openapi({ description: 'Violations in all, listed or not: one request may break several rules.' }),
        requests: z
          .array(
            outbound(
              z.strictObject({
                id: z.string(),
                method: z.string(),
                path: z.string(),
                status: z.number().int(),
                violations: z.array(ApiErrorIssue),
                violations_omitted: ViolationsOmitted,
                label: LabelField,
              }),
            ),
          )
          .openapi({ description: 'The most recent violating requests, each with its violations and the label it carried (the test that sent it).' }),
      }),
    ),
    receivers: outbound(z.strictObject({ quick_answer_ms: z.number().int(), findings: z.array(ReceiverFindings) })),
    receiver_checks: z
      .array(
        outbound(
          z.strictObject({
            id: z.string(),
            endpoint_id: idOf('whe'),
            url: z.string(),
            outcome: z
              .enum(['pass', 'fail', 'incomplete'])
              .openapi({ description: '`incomplete`: none failed, some were skipped (a skipped check is not a pass).' }),
            summary: z.string().openapi({ description: "The check's summary: counts, what was skipped and why." }),
            passed: z.number().int(),
            failed: z.number().int(),
            skipped: z.number().int(),
            failures: z.array(outbound(z.strictObject({ check: z.string(), rule: z.string(), reason: z.string() }))),
          }),
        ),
      )
      .openapi({ description: 'The receiver checks run through the control API since the last reset, with their failures.' }),
    client_behaviour: outbound(
      z.strictObject({
        note: z.string().openapi({ description: 'How to read the findings: client waits are measured in real time.' }),
        max_requests_per_second: z.number().int(),
        findings: z.array(ClientBehaviourFinding),
      }),
    ),
    relied_on: z.array(ReliedOnChoice).openapi({
      description:
        "The choices of bvs-mock where the spec is silent or unsure (docs/fidelity.md) that this run exercised, once per row and choice, in row order: a value the spec never shows that the client read, a path of bvs-mock's choosing it called, a scope it asked for by name, an error code it was answered. The real service may differ on each.",
    }),
  }),
  'ContractReport',
);

export type JournalEntry = z.infer<typeof JournalEntry>;
export type ReceiverFindings = z.infer<typeof ReceiverFindings>;
export type ContractReport = z.infer<typeof ContractReport>;
export type ClientBehaviourFinding = z.infer<typeof ClientBehaviourFinding>;
export type ReliedOnChoice = z.infer<typeof ReliedOnChoice>;
