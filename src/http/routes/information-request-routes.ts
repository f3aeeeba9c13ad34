import type { ZodType } from 'zod';
import type { ActionResult, InformationRequestFlow } from '../../engine';
import { AnalyzeRequest, AssignRequest, CompleteAssignmentRequest, EvaluateRequest, SubmitItemsRequest, parseWith } from '../../schemas';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { unwrap } from '../api-problem';

/**
 * One action on an information request, as its recipient or a reviewer
 * (`POST /_mock/information_requests/:id/<action>`): the body checked with
 * `schema`, the action applied, and the request answered as it stands after it.
 */
function requestAction<T>(path: string, schema: ZodType<T>, act: (flow: InformationRequestFlow, body: T) => ActionResult<unknown>): Route {
  return {
    method: 'POST',
    pattern: `/_mock/information_requests/:id/${path}`,
    operation: `control.information_request.${path.replace('/', '.')}`,
    access: { kind: 'control' },
    handle(context) {
      const id = context.params.id!;
      const body = checkBody(context, (value) => parseWith(schema, value), context.json() ?? {});
      const flow = unwrap(context.services.engine.informationRequestFlow(context.organizationId, id));
      unwrap(act(flow, body));
      return jsonResponse(202, context.services.engine.getInformationRequest(context.organizationId, id));
    },
  };
}

/** The recipient's and reviewers' actions (docs/design.md, control API; docs/fidelity.md row 13). */
export const informationRequestRoutes: Route[] = [
  requestAction('submit', SubmitItemsRequest, (flow, body) => flow.submit(body.items ?? 'all')),
  requestAction('analyze', AnalyzeRequest, (flow, body) => flow.analyze({ information_sheet: body.information_sheet, chat: body.chat })),
  requestAction('assignments', AssignRequest, (flow, body) => flow.assign({ reviewer_email: body.reviewer_email, role: body.role })),
  requestAction('assignments/complete', CompleteAssignmentRequest, (flow, body) => flow.completeAssignment(body.reviewer_email)),
  requestAction('evaluate', EvaluateRequest, (flow, body) => flow.evaluate(body.comment)),
];
