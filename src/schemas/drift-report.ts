import { z } from './zod';

/** The `format` of `bvs-mock drift --report FILE.json`. */
export const DRIFT_REPORT_FORMAT = 'bvs-mock/drift';

/**
 * One difference `bvs-mock drift` found between a recording of the service and bvs-mock: in the recorded exchanges and
 * payloads against the contract (`contract`), or between a recorded tree and bvs-mock's play of it (`event`, `order`,
 * `timing`, `shape`), counted once per tree, check, subject and path.
 */
export const DriftReportDifference = z.strictObject({
  /** The main validation of the tree; null for an exchange of no tree (a token, an endpoint). */
  tree_id: z.string().nullable(),
  check: z.enum(['contract', 'event', 'order', 'timing', 'shape']),
  /** The operation and side, or the event and what it is about. */
  subject: z.string(),
  /** Where, as a JSON path; null for an event, its order or its timing. */
  path: z.string().nullable(),
  /** What bvs-mock (its contract, or its play of the tree) does. */
  bvs_mock: z.string(),
  /** What the recording shows. */
  recording: z.string(),
  /** The row of docs/fidelity.md that holds bvs-mock's choice, where one does. */
  row: z.number().int().positive().nullable(),
  /** `refutes`: the recording refutes the choice of `row`; `differs`: no row holds a choice there. */
  verdict: z.enum(['refutes', 'differs']),
  /** The reading of the spec (`bvs-mock readings`) under which bvs-mock plays what the recording shows, when one does. */
  reading: z.strictObject({ name: z.string(), value: z.string() }).nullable(),
  count: z.number().int().positive(),
});

/** A choice of bvs-mock the recording bears out: the tree plays otherwise under another reading, and the recording matches bvs-mock's. */
export const DriftConfirmation = z.strictObject({
  /** The tree that shows it; null for what the API exchanges show (a token request). */
  tree_id: z.string().nullable(),
  row: z.number().int().positive(),
  choice: z.string(),
  evidence: z.string(),
});

/** One recorded tree and how its replay went. */
export const DriftTree = z.strictObject({
  tree_id: z.string(),
  display_name: z.string().nullable(),
  events_recorded: z.number().int().nonnegative(),
  events_played: z.number().int().nonnegative(),
  /** Why the tree was not played in bvs-mock (nothing to compare with), or null. */
  not_played: z.string().nullable(),
});

/** `bvs-mock drift REC...`: what the recordings confirm and refute of bvs-mock. */
export const DriftReport = z.strictObject({
  format: z.literal(DRIFT_REPORT_FORMAT),
  version: z.literal(1),
  recordings: z.array(z.string()),
  tolerance_ms: z.number().int().nonnegative(),
  /** The readings bvs-mock played (`--reading`), each at bvs-mock's default unless given. */
  readings: z.record(z.string(), z.string()),
  exchanges_checked: z.number().int().nonnegative(),
  deliveries_checked: z.number().int().nonnegative(),
  trees: z.array(DriftTree),
  differences: z.array(DriftReportDifference),
  confirmations: z.array(DriftConfirmation),
});

export type DriftReportDifference = z.infer<typeof DriftReportDifference>;
export type DriftReport = z.infer<typeof DriftReport>;
