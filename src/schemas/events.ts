import { DataSourceRun } from './data-source-run';
import { ChildBatchesReadyBatch, DataSourceRunBatch } from './data-source-run-batch';
import { EntityValidation } from './entity-validation';
import { EVENT_RESOURCE_KEYS, EVENT_TYPES, type EventType } from './event-types';
import { Formation } from './formation';
import { Assignment, InformationRequest, RequestableItem } from './information-request';
import { z } from './zod';

/** The resource schema each resource key carries (spec §6, Envelope; §2). */
const RESOURCE_SCHEMAS = {
  stakeholder: EntityValidation,
  formation: Formation,
  data_source_run_batch: DataSourceRunBatch,
  data_source_run: DataSourceRun,
  information_request: InformationRequest,
  requestable_item: RequestableItem,
  assignment: Assignment,
} as const;

type ResourceSchemas = typeof RESOURCE_SCHEMAS;

/** Where one event type's resource differs from its key's: the children of child_batches_ready (spec §6 rule 4, docs/fidelity.md row 21). */
const TYPE_RESOURCE_SCHEMAS = { 'data_source_run_batch.child_batches_ready': ChildBatchesReadyBatch } as const;

/** The resource schema an event type carries. */
type ResourceSchemaOf<T extends EventType> = T extends keyof typeof TYPE_RESOURCE_SCHEMAS
  ? (typeof TYPE_RESOURCE_SCHEMAS)[T]
  : ResourceSchemas[(typeof EVENT_RESOURCE_KEYS)[T]];

/** The envelope schema of one event type: exactly `type` and its one resource key. */
type EnvelopeSchema<T extends EventType> = z.ZodObject<
  { type: z.ZodLiteral<T> } & { [K in (typeof EVENT_RESOURCE_KEYS)[T]]: ResourceSchemaOf<T> },
  z.core.$strict
>;

/** Component name of an event envelope: `data_source_run_batch.ready` becomes `DataSourceRunBatchReadyEvent`. */
export function envelopeComponentName(type: EventType): string {
  const words = type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join('')}Event`;
}

function envelope<T extends EventType>(type: T): EnvelopeSchema<T> {
  const key = EVENT_RESOURCE_KEYS[type];
  const resource = (TYPE_RESOURCE_SCHEMAS as Partial<Record<EventType, z.ZodType>>)[type] ?? RESOURCE_SCHEMAS[key];
  const shape = { type: z.literal(type), [key]: resource };
  // The envelope is closed in the document too: `type` plus one key and nothing else (spec §6, Envelope).
  return z.strictObject(shape).openapi(envelopeComponentName(type)) as unknown as EnvelopeSchema<T>;
}

/** One envelope schema per event type, keyed by the type. */
export const EVENT_SCHEMAS: { [T in EventType]: EnvelopeSchema<T> } = Object.fromEntries(EVENT_TYPES.map((type) => [type, envelope(type)])) as unknown as {
  [T in EventType]: EnvelopeSchema<T>;
};

/** A webhook event body of a given type. */
export type WebhookEvent<T extends EventType = EventType> = { [K in T]: z.infer<EnvelopeSchema<K>> }[T];

/**
 * Any webhook event body: discriminated by `type`, so a payload is checked
 * against its own type's envelope and the issues name its paths.
 */
export const WebhookEventBody = z
  .discriminatedUnion('type', EVENT_TYPES.map((type) => EVENT_SCHEMAS[type]) as unknown as [EnvelopeSchema<EventType>, ...EnvelopeSchema<EventType>[]])
  .openapi('WebhookEvent');
