import { outbound } from './outbound';
import { z } from './zod';

/** What kind of difference the proxy found between the contract and what went through it. */
export const DriftKind = z.enum([
  'unknown_field',
  'missing_field',
  'wrong_type',
  'unseen_value',
  'invalid_value',
  'undocumented_status',
  'error_body',
  'slow_answer',
  'unexpected_content_type',
]);

/**
 * One difference `bvs-mock proxy` found between the contract (bvs-mock's schemas and document) and a request or an
 * answer that went through it, counted: the same operation, JSON path and kind count as one.
 */
export const DriftDifference = outbound(
  z.strictObject({
    operation: z.string().openapi({ description: 'The operationId of the API operation, as the document names it (`getEntityValidation`).' }),
    side: z.enum(['request', 'answer']).openapi({ description: "Whether the client's request or the upstream's answer differs." }),
    kind: DriftKind,
    path: z.string().openapi({
      description:
        'Where, as a JSON path (`$.data_source_run_batches[0].status`); `$status` for the status code, `$time` for the answer time, `$headers["content-type"]` for a header.',
    }),
    expected: z.string().openapi({ description: 'What the contract says.' }),
    actual: z.string().openapi({ description: 'What was sent, credentials masked.' }),
    row: z.number().int().positive().nullable().openapi({ description: 'The row of docs/fidelity.md the difference concerns, where one does.' }),
    count: z.number().int().positive().openapi({ description: 'How many exchanges showed it.' }),
    first_request_id: z.string().openapi({ description: "The first exchange that showed it: the upstream's `X-Request-Id`, or the proxy's own number." }),
  }),
  'DriftDifference',
);

export type DriftDifference = z.infer<typeof DriftDifference>;

/** `GET /_mock/drift`: the differences found so far. */
export const DriftAnswer = outbound(
  z.strictObject({
    differences: z.array(DriftDifference),
    differences_omitted: z
      .number()
      .int()
      .nonnegative()
      .openapi({ description: 'Distinct differences found beyond the ones kept (at most 1,000 are): counted, not listed.' }),
    exchanges: z.number().int().nonnegative().openapi({ description: 'API exchanges checked so far.' }),
  }),
  'DriftAnswer',
);

export type DriftAnswer = z.infer<typeof DriftAnswer>;
