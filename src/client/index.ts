/**
 * The control API's one client, for node and the browser alike: the contract derived from the route
 * table, a fetch-based typed client, its error, and the reader of server-sent events. Nothing here imports
 * node or the server: the dashboard bundles it, `bvs-mock/testing` builds on it.
 */
export type {
  ControlAnswer,
  ControlBody,
  ControlInput,
  ControlMethod,
  ControlOperationName,
  ControlParams,
  ControlPathTable,
  ControlPattern,
  ControlQuery,
} from './control-contract';
export { CONTROL_PATHS } from './control-paths';
export {
  createControlClient,
  type CallArgs,
  type CallOptions,
  type ControlClient,
  type ControlConnection,
  type ListField,
  type PagedOperation,
} from './control-client';
export { createEventParser, readEvents, type EventParser, type EventParserCallbacks, type ServerSentEvent } from './server-sent-events';
