/** The simulation engine: state, ids, and the scenario player. */
export { Engine } from './engine';
export { DEFAULT_MAX_VALIDATIONS, type EngineOptions, type CreateValidationInput, type ScenarioLookup } from './engine-options';
export type { EngineEvent, EventSink } from './engine-event';
export type { ActionResult, ActionErrorCode } from './action-result';
export type { PlaySettings } from './engine-context';
export { recipientPath } from './engine-context';
export { IdSource } from './id-source';
export type { FileKind, FileSource } from './file-lookup';
export { createRandom, type Random, type RandomState } from './random';
export type { EngineSnapshot } from './engine-snapshot';
export type { PlayTimerTag } from './play-timers';
export type { InformationRequestFlow } from './information-request-flow';
