import type { ZodType } from 'zod';
import {
  ApiError,
  Assignment,
  DataSourceRun,
  DataSourceRunBatch,
  DataSourceRunRecords,
  DeliveryEvent,
  EVENT_SCHEMAS,
  EntityValidation,
  EntityValidationCreateRequest,
  Formation,
  InformationRequest,
  LatestDataSourceRun,
  LegacyWebhook,
  OAuthTokenRequest,
  OAuthTokenResponse,
  RaisedAlert,
  RequestableItem,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEventBody,
} from '../schemas';

/**
 * Every schema a payload can be checked against, by the name it has in the
 * OpenAPI document (`EntityValidation`) or, for event envelopes, by event type
 * (`data_source_run_batch.ready`).
 */
export const SCHEMA_CATALOG: Readonly<Record<string, ZodType>> = {
  ApiError,
  Error: ApiError,
  Assignment,
  DataSourceRun,
  DataSourceRunBatch,
  DataSourceRunRecords,
  DeliveryEvent,
  EntityValidation,
  EntityValidationCreateRequest,
  Formation,
  InformationRequest,
  LatestDataSourceRun,
  LegacyWebhook,
  OAuthTokenRequest,
  OAuthTokenResponse,
  RaisedAlert,
  RequestableItem,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEvent: WebhookEventBody,
  ...EVENT_SCHEMAS,
};

/** The names {@link SCHEMA_CATALOG} knows, sorted. */
export const SCHEMA_NAMES = Object.keys(SCHEMA_CATALOG).sort();

/**
 * The schema of {@link SCHEMA_CATALOG} named `name`, or undefined: only the catalog's own names count, so
 * `__proto__`, `constructor` or `toString` (inherited by every object) name no schema.
 *
 * @example
 * schemaNamed('EntityValidation') // the EntityValidation schema
 * schemaNamed('constructor') // undefined
 */
export function schemaNamed(name: string): ZodType | undefined {
  return Object.hasOwn(SCHEMA_CATALOG, name) ? SCHEMA_CATALOG[name] : undefined;
}
