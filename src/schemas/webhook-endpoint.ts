import { EventTypeName } from './event-types';
import { idOf } from './ids';
import { outbound } from './outbound';
import { HttpUrl, Timestamp } from './primitives';
import { z } from './zod';

/**
 * Outbound authentication type of an endpoint (spec §2, §5.5). `secret` is the
 * spec's value; the wire values of the none and OAuth types are not shown, and
 * bvs-mock uses `none` and `oauth` (docs/fidelity.md).
 */
export const WebhookAuthType = z.enum(['none', 'secret', 'oauth']).openapi('WebhookAuthType', {
  description: 'secret is the spec value; none and oauth are bvs-mock choices (the spec does not show them).',
});

/** An organization-level webhook endpoint (spec §2, Webhook endpoint). */
export const WebhookEndpoint = outbound(
  z.strictObject({
    id: idOf('whe'),
    name: z.string(),
    url: HttpUrl,
    enabled: z.boolean().openapi({ description: 'A disabled endpoint receives nothing.' }),
    subscribed_events: z.array(EventTypeName),
    auth_type: WebhookAuthType,
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  'WebhookEndpoint',
);

/** Response of `GET /api/v2/webhook_endpoints` (spec §4). */
export const WebhookEndpointList = outbound(z.strictObject({ webhook_endpoints: z.array(WebhookEndpoint) }), 'WebhookEndpointList');

export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;
