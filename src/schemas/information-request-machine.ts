/**
 * The one table of an information request's life (docs/fidelity.md rows 13 and 70): which actions each
 * status allows, and where each leads. The engine follows it for driven actions and scripted steps, and
 * scenario files are checked against it when loaded.
 *
 *   pending ──submit (the last item)──▶ items_collected ──analyze──▶ in_review ──evaluate──▶ evaluated
 *
 * Reviewers may be assigned, and their assignments completed, at any time before the evaluation;
 * `evaluate` also needs a reviewer with the role `responsible` (spec §6 Triggers: "after-evaluation
 * submitted by the responsible reviewer"). `evaluated` is final.
 */

/** The statuses, in the order a request goes through them. */
export type InformationRequestStatusName = 'pending' | 'items_collected' | 'in_review' | 'evaluated';

/** An action, named as its control API path says it (`POST /_mock/information_requests/:id/<action>`). */
export type InformationRequestAction = 'submit' | 'analyze' | 'assignments' | 'assignments/complete' | 'evaluate';

/** What each status allows. */
export const ALLOWED_ACTIONS: Readonly<Record<InformationRequestStatusName, readonly InformationRequestAction[]>> = {
  pending: ['submit', 'assignments', 'assignments/complete'],
  items_collected: ['analyze', 'assignments', 'assignments/complete'],
  in_review: ['analyze', 'assignments', 'assignments/complete', 'evaluate'],
  evaluated: [],
};

/** What an action needs, said to the user who tried it too early or too late. */
const NEEDS: Readonly<Record<InformationRequestAction, string>> = {
  submit: 'submit needs items still pending (status pending)',
  analyze: 'analyze needs every item submitted (status items_collected or in_review)',
  assignments: 'assigning a reviewer needs a request not yet evaluated',
  'assignments/complete': 'completing an assignment needs a request not yet evaluated',
  evaluate: 'evaluate needs the analysis done (status in_review) and a responsible reviewer assigned',
};

/** Why an action is refused now: the status, what the action needs, and what is allowed instead. */
export interface RefusedAction {
  status: InformationRequestStatusName;
  allowed: readonly InformationRequestAction[];
  message: string;
}

/**
 * Whether `action` may happen to a request in `status`; undefined when it may, else why not.
 * `hasResponsible`: a reviewer with the role `responsible` is assigned.
 */
export function refusedAction(
  status: InformationRequestStatusName,
  action: InformationRequestAction,
  { hasResponsible }: { hasResponsible: boolean },
): RefusedAction | undefined {
  const allowed = ALLOWED_ACTIONS[status];
  const noResponsible = action === 'evaluate' && allowed.includes('evaluate') && !hasResponsible;
  if (allowed.includes(action) && !noResponsible) return undefined;
  const instead = allowed.filter((candidate) => candidate !== 'evaluate' || hasResponsible);
  const why = noResponsible
    ? 'evaluate needs a reviewer with the role responsible: assign one first (POST …/assignments with role responsible)'
    : NEEDS[action];
  const next = instead.length === 0 ? 'nothing more can happen to it' : `allowed now: ${instead.join(', ')}`;
  return { status, allowed: instead, message: `the information request is ${status}; ${why}; ${next}` };
}

/** The status after an action that changes it (the last submit, the first analysis, the evaluation). */
export function statusAfter(
  status: InformationRequestStatusName,
  action: InformationRequestAction,
  { allSubmitted }: { allSubmitted: boolean },
): InformationRequestStatusName {
  if (action === 'submit' && allSubmitted) return 'items_collected';
  if (action === 'analyze' && status === 'items_collected') return 'in_review';
  if (action === 'evaluate') return 'evaluated';
  return status;
}
