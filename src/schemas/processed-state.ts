import { z } from './zod';

/**
 * What a receiver's side-effect probe answers (`check-receiver --observe URL`, `observe` of `checkReceiver` and of
 * `POST /_mock/receiver-checks`): the events the receiver processed, one entry each time it processed one, so a
 * duplicate processed twice shows twice (docs/receiver-probe.md). Read by the receiver check, never sent by bvs-mock:
 * fields it does not know are allowed and ignored.
 */
export const ProcessedEvent = z
  .object({
    type: z.string().min(1).openapi({ description: 'The event type, as the body carried it.', example: 'data_source_run_batch.data_source_run.ready' }),
    id: z.string().nullable().openapi({
      description:
        "The `id` of the body's one resource (the key beside `type`: `data_source_run`, `data_source_run_batch`, `stakeholder`, ...); null when it has none.",
      example: 'dsr_probe21x01JD5ZQ8K3M7T2XW9Y4B6C1N0P',
    }),
  })
  .openapi('ProcessedEvent');

export const ProcessedState = z
  .object({
    processed: z.array(ProcessedEvent).openapi({ description: 'Every processing of an event since the receiver started, oldest first.' }),
    pending: z.number().int().nonnegative().optional().openapi({
      description:
        'Deliveries acknowledged and not processed yet. A receiver that processes after its answer (spec §6 rule 4) gives it: the check reads the probe again until it is 0.',
    }),
  })
  .openapi('ProcessedState', {
    description:
      "What a receiver's test build processed, as its side-effect probe answers it: the receiver check grades duplicates, redeliveries, events out of order and forged deliveries by it (docs/receiver-probe.md).",
  });

export type ProcessedEvent = z.infer<typeof ProcessedEvent>;
export type ProcessedState = z.infer<typeof ProcessedState>;
