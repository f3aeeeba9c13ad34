import { EVENT_TYPES, type EventType } from './event-type-names';
import { z } from './zod';

export { EVENT_RESOURCE_KEYS, EVENT_TYPES, type EventType, type ResourceKey } from './event-type-names';

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
