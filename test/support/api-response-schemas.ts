import type { ZodType } from 'zod';
import {
  DataSourceRunBatch,
  DataSourceRunRecords,
  EntityValidation,
  Formation,
  InformationRequest,
  OAuthTokenResponse,
  WebhookEndpointList,
} from '../../src/schemas';

/**
 * The zod schema of each API operation's 2xx JSON body, by operation name (as
 * `allRoutes()` names them). Outgoing bodies go through the same schemas in
 * tests, so the mock cannot drift from its contract (CONTRIBUTING.md rule 3).
 */
export const API_RESPONSE_SCHEMAS: Readonly<Record<string, ZodType>> = {
  createOAuthToken: OAuthTokenResponse,
  listWebhookEndpoints: WebhookEndpointList,
  createEntityValidation: EntityValidation,
  getEntityValidation: EntityValidation,
  getDataSourceRunRecords: DataSourceRunRecords,
  getDataSourceRunBatch: DataSourceRunBatch,
  generateConsolidatedReport: DataSourceRunBatch,
  getFormation: Formation,
  addStakeholders: EntityValidation,
  getInformationRequest: InformationRequest,
};
