import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { EVENT_EXAMPLES, EVENT_RESOURCE_KEYS, EVENT_SCHEMAS, EVENT_TRIGGERS, EVENT_TYPES } from '../schemas';
import { WEBHOOK_SECURITY } from './security';

/** Registers the 12 events of spec §6 under the document's top-level `webhooks`. */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const type of EVENT_TYPES) {
    const schema = EVENT_SCHEMAS[type];
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `on_${type.replace(/\./g, '_')}`,
      tags: ['Webhooks'],
      summary: type,
      description: `${EVENT_TRIGGERS[type]} The body is the envelope: \`type\` and \`${EVENT_RESOURCE_KEYS[type]}\`, nothing else.`,
      security: WEBHOOK_SECURITY,
      request: {
        body: { required: true, content: { 'application/json': { schema, example: EVENT_EXAMPLES[type]() } } },
      },
      responses: {
        200: {
          description:
            'Any 2xx acknowledges the delivery; answer quickly and process asynchronously. Anything else is retried, up to 20 times with exponential backoff (spec §6, §8).',
        },
      },
    });
  }
}
