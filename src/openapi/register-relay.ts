import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { RelayReport } from '../schemas';
import { CONTROL_SECURITY } from './security';

/**
 * `GET /_mock/relay`, which `bvs-mock listen` answers on its own port (not `bvs-mock serve`): the webhook deliveries
 * it relayed to the local receiver and what it found in them (src/relay/webhook-relay.ts).
 */
export function registerRelay(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/_mock/relay',
    operationId: 'getRelay',
    tags: ['Relay'],
    summary: 'The deliveries `bvs-mock listen` relayed, and its findings',
    description:
      "Answered by `bvs-mock listen --forward-to URL` on its own port, not by `bvs-mock serve`. Every POST to the relay outside `/_mock/` is a delivery of the service: checked (the envelope against the event schemas, the Authorization given with `--auth`, the order and gating rules of spec §6 per validation tree), forwarded with its headers to the receiver, and answered with the receiver's status and body (502 when the receiver gives no answer), so the service's retries are real. Records never hold a credential. With `--control-token`, this operation needs `Authorization: Bearer <token>`.",
    security: CONTROL_SECURITY,
    responses: {
      200: { description: 'The deliveries in arrival order and the findings.', content: { 'application/json': { schema: RelayReport } } },
      401: { description: 'Started with `--control-token`, and this request did not carry it.', content: { 'text/plain': { schema: { type: 'string' } } } },
    },
  });
}
