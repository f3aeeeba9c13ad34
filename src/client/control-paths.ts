import type { ControlPathTable } from './control-contract';

/**
 * Each control operation's method and path pattern: the only part of the control contract a client
 * needs at run time, kept here as plain data so the dashboard's bundle takes nothing of the server.
 * The type makes it the route table's own: a missing, extra or different entry does not compile, and
 * test/client/control-contract.test.ts compares it with `controlOperations()` as served.
 */
export const CONTROL_PATHS: ControlPathTable = {
  'control.health': ['GET', '/_mock/health'],
  'control.reset': ['POST', '/_mock/reset'],
  'control.clock': ['GET', '/_mock/clock'],
  'control.clock.advance': ['POST', '/_mock/clock/advance'],
  'control.clock.run': ['POST', '/_mock/clock/run'],
  'control.scenarios.list': ['GET', '/_mock/scenarios'],
  'control.scenarios.add': ['POST', '/_mock/scenarios'],
  'control.scenarios.remove': ['DELETE', '/_mock/scenarios/:name'],
  'control.organization.settings': ['PATCH', '/_mock/organizations/:id/settings'],
  'control.emitted': ['GET', '/_mock/emitted'],
  'control.settled': ['GET', '/_mock/entity_validations/:id/settled'],
  'control.requests': ['GET', '/_mock/requests'],
  'control.revalidate': ['POST', '/_mock/entity_validations/:id/revalidate'],
  'control.run.input': ['POST', '/_mock/data_source_runs/:id/input'],
  'control.information_request.submit': ['POST', '/_mock/information_requests/:id/submit'],
  'control.information_request.analyze': ['POST', '/_mock/information_requests/:id/analyze'],
  'control.information_request.assignments': ['POST', '/_mock/information_requests/:id/assignments'],
  'control.information_request.assignments.complete': ['POST', '/_mock/information_requests/:id/assignments/complete'],
  'control.information_request.evaluate': ['POST', '/_mock/information_requests/:id/evaluate'],
  'control.certificate': ['GET', '/_mock/certificate'],
  'control.webhook_endpoints.list': ['GET', '/_mock/webhook_endpoints'],
  'control.webhook_endpoints.create': ['POST', '/_mock/webhook_endpoints'],
  'control.webhook_endpoints.update': ['PATCH', '/_mock/webhook_endpoints/:id'],
  'control.webhook_endpoints.delete': ['DELETE', '/_mock/webhook_endpoints/:id'],
  'control.webhook_endpoints.secret': ['POST', '/_mock/webhook_endpoints/:id/secret'],
  'control.events.list': ['GET', '/_mock/events'],
  'control.events.get': ['GET', '/_mock/events/:id'],
  'control.events.redeliver': ['POST', '/_mock/events/:id/redeliver'],
  'control.faults.list': ['GET', '/_mock/faults'],
  'control.faults.add': ['POST', '/_mock/faults'],
  'control.faults.clear': ['DELETE', '/_mock/faults'],
  'control.receiver_checks.run': ['POST', '/_mock/receiver-checks'],
  'control.receiver_checks.list': ['GET', '/_mock/receiver-checks'],
  'control.report': ['GET', '/_mock/report'],
  'control.organizations': ['GET', '/_mock/organizations'],
  'control.validations.list': ['GET', '/_mock/entity_validations'],
  'control.validations.tree': ['GET', '/_mock/entity_validations/:id'],
  'control.stream': ['GET', '/_mock/stream'],
  'control.document.json': ['GET', '/_mock/openapi.json'],
  'control.document.yaml': ['GET', '/_mock/openapi.yaml'],
  'control.sessions.create': ['POST', '/_mock/sessions'],
  'control.sessions.list': ['GET', '/_mock/sessions'],
  'control.sessions.get': ['GET', '/_mock/sessions/:id'],
  'control.sessions.end': ['DELETE', '/_mock/sessions/:id'],
};
