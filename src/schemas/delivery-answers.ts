import { DeliveryEvent } from './delivery';
import { EventTypeName } from './event-types';
import { idOf } from './ids';
import { outbound } from './outbound';
import { CutBySize, NextCursor } from './page-cursor';
import { Timestamp } from './primitives';
import { WebhookEndpoint } from './webhook-endpoint';
import { z } from './zod';

/** What the control API answers about events and their way out: the events emitted, the webhook endpoints, the deliveries. */

/** Delivery records by status. */
export const DeliveryCounts = outbound(
  z.strictObject({ pending: z.number().int(), succeeded: z.number().int(), failed: z.number().int(), expired: z.number().int() }),
  'DeliveryCounts',
);

/** An event as `GET /_mock/emitted` lists it: the engine emitted it, whether or not an endpoint received it (docs/fidelity.md row 85). */
export const EmittedEvent = outbound(
  z.strictObject({
    sequence: z.number().int().positive(),
    type: EventTypeName,
    organization_id: z.string(),
    entity_validation_id: idOf('evl').openapi({ description: 'The validation created through the API whose tree it belongs to.' }),
    resource_id: z.string(),
    emitted_at: Timestamp,
  }),
  'EmittedEvent',
);

export const EmittedPage = outbound(z.strictObject({ events: z.array(EmittedEvent), next_cursor: NextCursor, cut_by_size: CutBySize }), 'EmittedPage');

/** An endpoint after a change, with its secret when this call made or set one (shown once, spec §5.5). */
export const WebhookEndpointAnswer = outbound(
  z.strictObject({ webhook_endpoint: WebhookEndpoint, secret: z.string().optional().openapi({ description: 'Shown once: only when this call set it.' }) }),
  'WebhookEndpointAnswer',
);

export const WebhookEndpointSecretAnswer = outbound(z.strictObject({ webhook_endpoint: WebhookEndpoint, secret: z.string() }), 'WebhookEndpointSecretAnswer');

export const ControlWebhookEndpointList = outbound(z.strictObject({ webhook_endpoints: z.array(WebhookEndpoint) }), 'ControlWebhookEndpointList');

export const DeliveryEventPage = outbound(
  z.strictObject({ events: z.array(DeliveryEvent), counts: DeliveryCounts, next_cursor: NextCursor, cut_by_size: CutBySize }),
  'DeliveryEventPage',
);

export type DeliveryCounts = z.infer<typeof DeliveryCounts>;
export type EmittedEvent = z.infer<typeof EmittedEvent>;
