import type { ZodType } from 'zod';
import type { ActionResult, InformationRequestFlow } from '../../engine';
import {
  AnalyzeRequest,
  AssignRequest,
  CompleteAssignmentRequest,
  EvaluateRequest,
  InformationRequest,
  SubmitItemsRequest,
  idOf,
  parseWith,
  z,
} from '../../schemas';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { unwrap } from '../api-problem';

/**
 * One action on an information request, as its recipient or a reviewer
 * (`POST /_mock/information_requests/:id/<action>`): the body checked with
 * `schema`, the action applied, and the request answered as it stands after it.
 */
function requestAction<const P extends string, S extends ZodType>(
  path: P,
  schema: S,
  document: { summary: string; description: string; required?: boolean },
  act: (flow: InformationRequestFlow, body: z.output<S>) => ActionResult<unknown>,
) {
  return {
    method: 'POST',
    pattern: `/_mock/information_requests/:id/${path}`,
    operation: `control.information_request.${path.replace('/', '.') as Dotted<P>}`,
    access: { kind: 'control' },
    document: {
      tags: ['Information requests'],
      summary: document.summary,
      description: `${document.description} Actions come in the order the request's status allows (docs/fidelity.md row 70); another order is a conflict.`,
      params: z.object({ id: idOf('irq') }),
      body: { schema, required: document.required ?? true },
      answer: { status: 202, description: 'The information request after the action.', schema: InformationRequest },
      errors: ['conflict'],
    },
    handle(context) {
      const id = context.params.id!;
      const body = checkBody(context, (value) => parseWith(schema, value), context.json() ?? {});
      const flow = unwrap(context.world.engine.informationRequestFlow(context.organizationId, id));
      unwrap(act(flow, body));
      return jsonResponse(202, context.world.engine.getInformationRequest(context.organizationId, id));
    },
  } as const satisfies Route;
}

/** `assignments/complete` as the operation names it: `assignments.complete`. */
type Dotted<P extends string> = P extends `${infer Head}/${infer Tail}` ? `${Head}.${Tail}` : P;

/** The recipient's and reviewers' actions (docs/design.md, control API; docs/fidelity.md row 13). */
export const informationRequestRoutes = [
  requestAction(
    'submit',
    SubmitItemsRequest,
    { summary: 'The recipient submits items', description: 'The items named, or every item left.', required: false },
    (flow, body) => flow.submit(body.items ?? 'all'),
  ),
  requestAction(
    'analyze',
    AnalyzeRequest,
    { summary: 'The analysis of the items collected', description: 'Its information sheet and chat (`analysis_success`).', required: false },
    (flow, body) => flow.analyze({ information_sheet: body.information_sheet, chat: body.chat }),
  ),
  requestAction('assignments', AssignRequest, { summary: 'Assign a reviewer', description: 'A reviewer, or the responsible reviewer.' }, (flow, body) =>
    flow.assign({ reviewer_email: body.reviewer_email, role: body.role }),
  ),
  requestAction(
    'assignments/complete',
    CompleteAssignmentRequest,
    { summary: "A reviewer's assignment is complete", description: "By the reviewer's email." },
    (flow, body) => flow.completeAssignment(body.reviewer_email),
  ),
  requestAction('evaluate', EvaluateRequest, { summary: 'The responsible reviewer evaluates', description: 'With a comment (`evaluated`).' }, (flow, body) =>
    flow.evaluate(body.comment),
  ),
] as const satisfies readonly Route[];
