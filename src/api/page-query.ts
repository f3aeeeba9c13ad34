import { problems } from './api-problem';
import { JSON_CONTENT_TYPE, type CoreRequest, type CoreResponse } from './core-types';

/** Items on one page of a control API list when `limit` is not given. */
const DEFAULT_PAGE_SIZE = 100;
/** The largest `limit` a list takes. */
const MAX_PAGE_SIZE = 1_000;

/**
 * Bytes of JSON the items of one control list page take at most, unless told otherwise (`--max-page-bytes`).
 * A page of 1,000 delivery records was 4.1 MB, and each connection whose client does not read holds its
 * answer until the idle timeout lets it go (node-server.ts): 1 MiB still holds about 250 delivery records,
 * a whole page of any other list, and is read in milliseconds, while 450 such connections then hold about
 * half a gigabyte, not 5.4 GB (docs/fidelity.md row 102).
 */
export const DEFAULT_MAX_PAGE_BYTES = 1024 * 1024;

/** The smallest and largest `maxPageBytes`: below 1 KiB most pages would hold one item; above 64 MiB a page is no longer bounded in any useful sense. */
export const PAGE_BYTES_RANGE = { min: 1024, max: 64 * 1024 * 1024 } as const;

/**
 * The items of one page as JSON text, taken while they fit the page's byte budget: the first always comes
 * (a single item larger than the budget comes alone), and the one that would pass the budget ends the page,
 * which is then cut by size. Each item is serialized once: the answer is made of these texts.
 */
export class PageBudget {
  private readonly texts: string[] = [];
  /** `[` and `]`, then each item and the comma before it. */
  private bytes = 2;
  private cut = false;

  constructor(private readonly maxBytes: number) {}

  /** Takes `item` when it fits and answers true; answers false, and the page is cut by size, when it would pass the budget. */
  readonly fits = (item: unknown): boolean => {
    const text = JSON.stringify(item);
    const size = Buffer.byteLength(text) + (this.texts.length === 0 ? 0 : 1);
    if (this.texts.length > 0 && this.bytes + size > this.maxBytes) {
      this.cut = true;
      return false;
    }
    this.texts.push(text);
    this.bytes += size;
    return true;
  };

  /** Whether the page ended before `limit` because the next item would have passed the budget. */
  get cutBySize(): boolean {
    return this.cut;
  }

  /**
   * The page's answer: `{"<key>": [the items taken], ...rest, "cut_by_size": ...}`, without serializing the
   * items again.
   */
  answer(key: string, rest: Record<string, unknown>): CoreResponse {
    const tail = JSON.stringify({ ...rest, cut_by_size: this.cut });
    return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: `{${JSON.stringify(key)}:[${this.texts.join(',')}],${tail.slice(1)}` };
  }
}

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
