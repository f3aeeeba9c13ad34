import { problems } from './api-problem';
import type { CoreRequest } from './core-types';

/** Items on one page of a control API list when `limit` is not given. */
export const DEFAULT_PAGE_SIZE = 100;
/** The largest `limit` a list takes. */
export const MAX_PAGE_SIZE = 1_000;

/** Where a page starts (after the item of this position, or from the first) and how long it is. */
export interface PageQuery {
  after: number | undefined;
  limit: number;
}

/**
 * Reads `?cursor=&limit=` of a control API list (`GET /_mock/events`, `/_mock/requests`,
 * `/_mock/webhook_endpoints`). A cursor is opaque to clients: it is what the
 * previous page's `next_cursor` said. Bad values get a 422 naming the parameter.
 */
export function readPageQuery(request: CoreRequest): PageQuery {
  const issues = [];
  const limitText = request.query.get('limit');
  let limit = DEFAULT_PAGE_SIZE;
  if (limitText !== null) {
    limit = /^\d{1,7}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= MAX_PAGE_SIZE))
      issues.push({
        path: '$query.limit',
        code: 'invalid_value',
        message: `must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(limitText)}`,
      });
  }
  const cursorText = request.query.get('cursor');
  let after: number | undefined;
  if (cursorText !== null && cursorText !== '') {
    after = decodeCursor(cursorText);
    if (after === undefined)
      issues.push({
        path: '$query.cursor',
        code: 'invalid_value',
        message: 'is not a cursor of this list: pass next_cursor of the previous page as it was given',
      });
  }
  if (issues.length > 0) throw problems.validationFailed(issues, 'query');
  return { after, limit };
}

/** The cursor of the page that starts after position `position`; null when there is no next page. */
export function encodeCursor(position: number | null): string | null {
  return position === null ? null : Buffer.from(`p${position}`).toString('base64url');
}

function decodeCursor(text: string): number | undefined {
  const match = /^p(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('latin1'));
  return match ? Number(match[1]) : undefined;
}
