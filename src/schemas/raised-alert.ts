import { idOf } from './ids';
import { outbound } from './outbound';
import { z } from './zod';
import { seenValues } from './seen-values';

/**
 * Alert severities. The spec shows `medium` and `high` and says the full set is
 * not shown; bvs-mock adds `low` and `critical` (docs/fidelity.md row 5).
 */
export const AlertSeverity = z.enum(['low', 'medium', 'high', 'critical']).openapi({
  description: 'Values seen in the spec: medium, high. bvs-mock also uses low and critical; clients should tolerate other values.',
});

/** A raised alert (spec §2, Raised alert). It belongs to the batch that contains it. */
export const RaisedAlert = outbound(
  z.strictObject({
    id: idOf('rlal'),
    name: z.string().min(1).openapi({ example: 'Tax debt' }),
    severity: seenValues(['low', 'medium', 'high', 'critical'], 'Values seen in the spec: medium, high; bvs-mock also sends low and critical.'),
    entity_validation_id: idOf('evl'),
    data_source_run_batch_id: idOf('dsrb'),
  }),
  'RaisedAlert',
);

export type RaisedAlert = z.infer<typeof RaisedAlert>;
