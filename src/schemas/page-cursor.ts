import { z } from './zod';

/**
 * The fields that end every page the control API answers: the cursor of the next page, and whether the
 * page was cut by its byte budget rather than by `limit`.
 */

/** A page's cursor: pass it back as `cursor` for the next page; null on the last page. */
export const NextCursor = z.string().nullable().openapi({ description: 'Pass it back as `cursor` for the next page; null on the last page.' });

/**
 * Whether a page ended before `limit` because its next item would have passed the page's byte budget
 * (1 MiB unless bvs-mock was started with `--max-page-bytes`; docs/fidelity.md row 102).
 */
export const CutBySize = z.boolean().openapi({
  description:
    'True when the page holds fewer than `limit` items because the next one would have taken it past the byte budget of a page (1 MiB unless bvs-mock was started with `--max-page-bytes`); `next_cursor` goes on from there. A page may hold fewer items than asked for: follow `next_cursor` until it is null instead of counting items.',
});
