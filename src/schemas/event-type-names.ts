/* No zod here: the dashboard's bundle imports these names and must not carry a schema library. */

/**
 * The 12 event types and the key that holds the serialized resource in each
 * envelope (spec §6, Envelope). The order is the spec's table order.
 */
export const EVENT_RESOURCE_KEYS = {
  'entity_validation.stakeholder.created': 'stakeholder',
  'entity_validation.formation.ready': 'formation',
  'data_source_run_batch.ready': 'data_source_run_batch',
  'data_source_run_batch.consolidated_report_ready': 'data_source_run_batch',
  'data_source_run_batch.child_batches_ready': 'data_source_run_batch',
  'data_source_run_batch.data_source_run.ready': 'data_source_run',
  'information_request.all_items_collected': 'information_request',
  'information_request.analysis_success': 'information_request',
  'information_request.status_updated': 'information_request',
  'information_request.evaluated': 'information_request',
  'information_request.requestable_item.extracted': 'requestable_item',
  'information_request.assignment.updated': 'assignment',
} as const;

/** An event type of the spec. */
export type EventType = keyof typeof EVENT_RESOURCE_KEYS;

/** The resource key of an event type's envelope. */
export type ResourceKey<T extends EventType = EventType> = (typeof EVENT_RESOURCE_KEYS)[T];

/** All 12 event types, in the spec's order. */
export const EVENT_TYPES = Object.keys(EVENT_RESOURCE_KEYS) as EventType[];
