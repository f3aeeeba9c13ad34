import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { VERSION } from '../version';
import { generateDocument, type OpenApiDocument } from './build-document';
import { registerRelay } from './register-relay';
import { registerControlSecurityScheme } from './security';

const DESCRIPTION = `What bvs-mock's tools for the real service answer on their own ports: \`bvs-mock listen\`, the webhook
relay between the service's deliveries and a local receiver. Neither \`bvs-mock serve\` nor its control API
answers these operations. Started with \`--control-token\`, each needs \`Authorization: Bearer <token>\`.`;

/**
 * Builds the OpenAPI 3.1 document of the tools that stand between a client and the real service (`bvs-mock listen`),
 * apart from the control API's document, which holds exactly what `bvs-mock serve` answers. Deterministic, so the
 * committed copy (openapi/tools.yaml) can be checked for drift.
 */
export function buildToolsDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerControlSecurityScheme(registry);
  registerRelay(registry);
  return generateDocument(registry, {
    title: "bvs-mock's tools for the real service",
    version: VERSION,
    description: DESCRIPTION,
    server: 'A running `bvs-mock listen` (HTTPS on port 4020 by default).',
    tags: [{ name: 'Relay', description: 'What `bvs-mock listen` answers: the webhook deliveries it relayed, checked.' }],
  });
}
