import { VERSION } from '../version';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { apiOperations } from '../api/routes/api-operations';
import { registerRoutes } from './register-routes';
import { registerSecuritySchemes } from './security';
import { registerWebhooks } from './register-webhooks';

/** The generated document, as a plain JSON-compatible object. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const DESCRIPTION = `The Business Validation Service API and its webhooks, as imitated by bvs-mock.

Strictness: what a client sends (request bodies, parameters) is described closed: unknown fields are
errors. What the service sends (responses, event resources) is described open
(\`additionalProperties: true\`), because the service's complete field lists are not shown and a client
must tolerate fields it does not know; bvs-mock itself sends exactly the fields described here. Event
envelopes are closed: \`type\` plus one resource key (see docs/fidelity.md).`;

/**
 * Builds the OpenAPI 3.1 document from the zod schemas and the routes (each declares its own
 * operation, so the document and what bvs-mock answers cannot drift): every path of spec §4,
 * both security schemes of spec §5 and the 12 events of spec §6 under `webhooks`.
 * The result is deterministic, so the committed copy can be checked for drift.
 */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry);
  registerRoutes(registry, apiOperations);
  registerWebhooks(registry);
  return generateDocument(registry, {
    title: 'Business Validation Service (bvs-mock)',
    // bvs-mock's version, the one `bvs-mock --version`, /_mock/health and the webhooks' User-Agent show; the API version is in the paths (/api/v2).
    version: VERSION,
    description: DESCRIPTION,
    server: 'The service, or bvs-mock (HTTPS on port 4010 by default).',
    tags: [
      { name: 'Authentication', description: 'OAuth 2.0 client credentials (spec §5).' },
      { name: 'Webhook endpoints', description: 'Organization-level webhook endpoints (spec §2, §6).' },
      { name: 'Entity validations', description: 'Validations of business entities and their related entities (spec §2, §4).' },
      { name: 'Data source runs', description: 'Batches of data source runs and the records they gathered (spec §2, §4).' },
      { name: 'Information requests', description: 'Items collected from a recipient, analysis and reviewers (spec §1.5, §2).' },
      { name: 'Webhooks', description: 'Events pushed to the client (spec §6).' },
    ],
  });
}

/** What differs between bvs-mock's documents (the API's, the control API's, the tools'). */
export interface DocumentHeading {
  title: string;
  version: string;
  description: string;
  /** What the server variable `base_url` points at. */
  server: string;
  tags: Array<{ name: string; description: string }>;
}

/** Generates an OpenAPI 3.1 document from a registry, with components sorted so the output is deterministic. */
export function generateDocument(registry: OpenAPIRegistry, heading: DocumentHeading): OpenApiDocument {
  const generator = new OpenApiGeneratorV31(registry.definitions, { sortComponents: 'alphabetically' });
  return generator.generateDocument({
    openapi: '3.1.0',
    info: { title: heading.title, version: heading.version, description: heading.description, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [
      {
        url: '{base_url}',
        description: heading.server,
        variables: { base_url: { default: 'https://127.0.0.1:4010', description: 'Base address of the API.' } },
      },
    ],
    tags: heading.tags,
  });
}
