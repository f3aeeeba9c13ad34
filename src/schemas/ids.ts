import { z } from './zod';

/**
 * Id prefixes of the spec (spec §2, table of prefixes), keyed by the resource
 * they identify. Ids are `<prefix>_<opaque suffix>`.
 */
export const ID_PREFIXES = {
  webhook_endpoint: 'whe',
  entity_validation: 'evl',
  information_request: 'irq',
  information_request_template: 'irt',
  data_source_run_batch: 'dsrb',
  data_source_run: 'dsr',
  raised_alert: 'rlal',
  document: 'doc',
  bankruptcy_bulletin_search_result: 'bbs',
  legacy_webhook: 'wbh',
  /** Not in the spec's table: bvs-mock's choice for requestable items (docs/fidelity.md). */
  requestable_item: 'rqi',
  /** Not in the spec's table: bvs-mock's choice for reviewer assignments (docs/fidelity.md). */
  assignment: 'asg',
  /** Not in the spec's table: bvs-mock's choice for delivery event records (docs/fidelity.md). */
  delivery_event: 'evt',
} as const;

/** One of the id prefixes bvs-mock knows. */
export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

/** The opaque suffix: letters, digits, `-` and `_`, 1 to 64 characters. */
const SUFFIX = '[A-Za-z0-9_-]{1,64}';

/**
 * A string id with the given prefix, for example `idOf('evl')` accepts `evl_8Xk2`.
 * The message names the expected prefix, so a client sending a `dsr_` id where
 * an `evl_` id belongs learns exactly what is wrong.
 */
export function idOf(prefix: IdPrefix) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_${SUFFIX}$`), {
      message: `must be an id of the form ${prefix}_<suffix> (prefix "${prefix}_" followed by letters, digits, "-" or "_")`,
    })
    .openapi({ example: `${prefix}_01JD5ZQ8K3M7T2XW9Y4B6C1N0P` });
}
