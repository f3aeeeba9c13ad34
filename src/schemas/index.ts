/**
 * The contract of the Business Validation Service as zod schemas: every
 * resource, request, response and event body of the spec. TypeScript types are
 * inferred from these schemas. Nothing here imports other bvs-mock modules.
 */
export * from './api-error';
export * from './data-source-run';
export * from './data-source-run-batch';
export * from './entity-validation';
export * from './entity-validation-create';
export * from './event-types';
export * from './events';
export * from './examples';
export * from './formation';
export * from './ids';
export * from './information-request';
export * from './information-request-machine';
export * from './legacy-webhook';
export * from './oauth';
export * from './parse-result';
export * from './listed-issues';
export * from './primitives';
export * from './raised-alert';
export * from './readings';
export * from './scopes';
export * from './webhook-endpoint';
export * from './duration';
export * from './scenario';
export * from './scenario-entity';
export * from './scenario-formation';
export * from './scenario-generated';
export * from './scenario-information-request';
export * from './scenario-outcome';
export * from './config';
export * from './control';
export * from './control-answers';
export * from './clock-answers';
export * from './delivery-answers';
export * from './fault-answers';
export * from './processed-state';
export * from './receiver-check-answers';
export * from './relay-answers';
export * from './recording';
export * from './report-answers';
export * from './drift';
export * from './drift-report';
export * from './session-answers';
export * from './server-state';
export { CutBySize } from './page-cursor';
export * from './dashboard-answers';
export * from './delivery';
export { z } from './zod';
export * from './seen-values';
export * from './world-snapshot';
