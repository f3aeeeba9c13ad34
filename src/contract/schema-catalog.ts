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
