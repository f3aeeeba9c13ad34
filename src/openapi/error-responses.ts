import { API_ERROR_STATUS, ApiError, OAuthError, oauthErrorOf, type ApiErrorCode } from '../schemas';
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';

/**
 * The error responses of one operation, grouped by HTTP status, each naming the
 * error codes it may carry. Every error uses the one `Error` shape.
 */
export function errorResponses(codes: readonly ApiErrorCode[]): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of codes) {
    const status = API_ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error: ${list.join(', ')}.`,
      content: { 'application/json': { schema: ApiError } },
    };
  }
  return responses;
}

/**
 * The error responses of the token endpoint, in RFC 6749 §5.2's form, grouped by status, each naming
 * the API error codes it stands for and the RFC error it carries.
 */
export function oauthErrorResponses(codes: readonly ApiErrorCode[]): Record<string, ResponseConfig> {
  const byStatus = new Map<number, Array<[ApiErrorCode, string]>>();
  for (const code of codes) {
    const [error, status] = oauthErrorOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, error]]);
  }
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error: ${list.map(([code]) => code).join(', ')}. RFC 6749 error: ${[...new Set(list.map(([, error]) => error))].join(', ')}.`,
      content: { 'application/json': { schema: OAuthError } },
    };
  }
  return responses;
}
