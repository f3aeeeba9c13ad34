import { API_ERROR_STATUS, ApiError, type ApiErrorCode } from '../schemas';
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
