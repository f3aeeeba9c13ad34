/**
 * Helpers for client test suites (`bvs-mock/testing`): a webhook receiver on loopback, a typed client
 * of the control API for a bvs-mock started anywhere, and the built-in scenarios' TINs.
 */
export {
  startWebhookReceiver,
  type ReceivedWebhook,
  type ReceiverAnswer,
  type Responder,
  type ReceiverOptions,
  type WebhookReceiver,
} from './webhook-receiver';
export {
  BvsMockControl,
  ControlApiError,
  type ClockRunOptions,
  DEFAULT_WAIT_MS,
  connectBvsMock,
  type ControlClientOptions,
  type EmittedEvent,
  type EventQuery,
  type Health,
  type JournalEntry,
  type ScenarioListing,
} from './control-client';
export type { SessionsControl } from './sessions-control';
export { SCENARIOS, type BuiltInScenario } from './scenarios';
export type { ChangeNotice } from './change-stream';
export { startBvsMock, type RunningBvsMock, type StartBvsMockOptions } from './start-bvs-mock';
export { bvsMatchers, expectNoViolations, type BvsMatchers } from './matchers';
export type { ReceivedExpectation } from './received-matcher';
export type { JournalFilter, RequestJournalReader } from './journal';
export { checkReceiver, ReceiverUrlError, type ProcessedState, type ReceiverCheckOptions } from './check-receiver';
export type { EndpointReceiverCheck, ReceiverCheckReport, ReceiverCheckResult } from '../schemas';
