import { idOf } from './ids';
import { outbound } from './outbound';
import { HttpsUrl, Timestamp } from './primitives';
import { z } from './zod';

/**
 * The legacy model's echo of a `webhook_url` (spec §6, Legacy model): nested in
 * the resource as `webhook`, or null when no URL was given.
 */
export const LegacyWebhook = outbound(
  z.strictObject({
    id: idOf('wbh'),
    webhook_url: HttpsUrl,
    created_at: Timestamp,
  }),
  'LegacyWebhook',
);

export type LegacyWebhook = z.infer<typeof LegacyWebhook>;
