import { z } from './zod';

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

/** Schema of an event type name. */
export const EventTypeName = z.enum(EVENT_TYPES as [EventType, ...EventType[]]).openapi('EventType', {
  description: 'One of the 12 webhook event types (spec §6).',
});

/** What makes each event fire (spec §6, Triggers). */
export const EVENT_TRIGGERS: Record<EventType, string> = {
  'entity_validation.stakeholder.created': 'Stakeholders were added to an entity validation (from societary data or via the API).',
  'entity_validation.formation.ready': 'Societary (formation) information is complete and the legal report PDF was generated.',
  'data_source_run_batch.ready': 'All runs of the main entity completed.',
  'data_source_run_batch.consolidated_report_ready': 'The consolidated PDF report of the validation tree was generated.',
  'data_source_run_batch.child_batches_ready': "The main entity's batch and every related entity batch finished (organization setting).",
  'data_source_run_batch.data_source_run.ready': 'An individual data source run completed (one event per run).',
  'information_request.all_items_collected': 'All items were submitted by the recipient.',
  'information_request.analysis_success': 'The AI analysis completed.',
  'information_request.status_updated': 'The status of the information request changed.',
  'information_request.evaluated': 'The responsible reviewer submitted the after-evaluation form.',
  'information_request.requestable_item.extracted': 'A single requestable item finished extraction.',
  'information_request.assignment.updated': 'A reviewer assignment changed status.',
};
