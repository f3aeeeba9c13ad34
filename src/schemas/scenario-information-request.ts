import { Duration } from './duration';
import { idOf } from './ids';
import { z } from './zod';

/** One item the recipient is asked for. */
export const ScenarioRequestableItem = z.strictObject({
  name: z.string().min(1),
  kind: z.enum(['document', 'text']).default('document'),
  /** Time from submission to `requestable_item.extracted`. */
  extract_after: Duration.default(5_000),
  /** Whether extraction fails (status `extraction_failed`, still reported by `requestable_item.extracted`). */
  extraction_fails: z.boolean().default(false),
  extracted_data: z.record(z.string(), z.unknown()).default({}),
});

/** The actions a step can take; each step takes exactly one. */
export const STEP_ACTIONS = ['submit', 'analyze', 'assign', 'complete_assignment', 'evaluate'] as const;

/**
 * A scripted step of an information request, `after` the previous step (the
 * first after the validation's creation). Without steps the request waits to be
 * driven through the control API.
 */
export const ScenarioInformationRequestStep = z
  .strictObject({
    after: Duration.default(0),
    /** The recipient submits these items (by name), or all of them. */
    submit: z.union([z.literal('all'), z.array(z.string()).min(1)]).optional(),
    /** The AI analysis completes with this information sheet and chat. */
    analyze: z
      .strictObject({
        information_sheet: z.record(z.string(), z.unknown()).default({}),
        chat: z.array(z.strictObject({ role: z.enum(['assistant', 'user']), content: z.string() })).default([]),
      })
      .optional(),
    /** A reviewer is assigned (the assignment starts `in_progress`). */
    assign: z.strictObject({ reviewer_email: z.email(), role: z.enum(['reviewer', 'responsible']).default('reviewer') }).optional(),
    /** The assignment of this reviewer is completed. */
    complete_assignment: z.email().optional(),
    /** The responsible reviewer submits the after-evaluation form. */
    evaluate: z.strictObject({ comment: z.string().min(1) }).optional(),
  })
  .superRefine((step, context) => {
    const actions = STEP_ACTIONS.filter((action) => step[action] !== undefined);
    if (actions.length !== 1) {
      context.addIssue({
        code: 'custom',
        message: `a step takes exactly one action among ${STEP_ACTIONS.join(', ')}; found ${actions.length === 0 ? 'none' : actions.join(', ')}`,
      });
    }
  });

/** The information request a scenario plays when the create call asks for one (or always, with `always: true`). */
export const ScenarioInformationRequest = z.strictObject({
  name: z.string().min(1).default('Information request'),
  /** Used when the create call gives no `information_request.template_id`. */
  template_id: idOf('irt').default('irt_default'),
  /** Create the request even when the create call does not ask for one. */
  always: z.boolean().default(false),
  items: z.array(ScenarioRequestableItem).min(1),
  steps: z.array(ScenarioInformationRequestStep).default([]),
});

export type ScenarioInformationRequest = z.infer<typeof ScenarioInformationRequest>;
export type ScenarioInformationRequestStep = z.infer<typeof ScenarioInformationRequestStep>;
