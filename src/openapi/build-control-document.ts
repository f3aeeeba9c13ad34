import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { controlOperations } from '../api/routes/control-operations';
import { VERSION } from '../version';
import { generateDocument, type OpenApiDocument } from './build-document';
import { registerRoutes } from './register-routes';
import { registerControlSecurityScheme } from './security';

const DESCRIPTION = `bvs-mock's control API: the levers and records a test uses beside the Business Validation Service's
API (the clock, scenarios, webhook endpoints and their delivery records, faults, information request actions,
the request journal and the contract report). Generate a client from this document in any language; in
TypeScript, \`bvs-mock/testing\` has one.

Every operation acts on the default organization unless \`organization_id\` is given (in the query, or in a
JSON body). When bvs-mock is started with \`--control-token\`, every operation but the health check and this
document needs \`Authorization: Bearer <token>\`.

Every operation under \`/_mock\` but the Sessions' own acts on the default session; the same operation under
\`/_mock/sessions/{id}\` (\`/_mock/clock\` becomes \`/_mock/sessions/{id}/clock\`) acts on that session, made by
\`POST /_mock/sessions\`.`;

/**
 * Builds the control API's OpenAPI 3.1 document from the control routes, each of which declares its own
 * operation beside its handler, as the API's document is built (docs/design.md, Control API). Deterministic,
 * so the committed copy (openapi/control.yaml) can be checked for drift.
 */
export function buildControlDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerControlSecurityScheme(registry);
  registerRoutes(registry, controlOperations());
  return generateDocument(registry, {
    title: 'bvs-mock control API',
    version: VERSION,
    description: DESCRIPTION,
    server: 'A running bvs-mock (HTTPS on port 4010 by default).',
    tags: [
      { name: 'Health', description: 'Readiness and what bvs-mock keeps.' },
      { name: 'Clock', description: 'The simulated clock that drives runs, retries, token and URL expiry (docs/design.md).' },
      { name: 'Scenarios', description: 'The scenario library: built in, from files, or added at run time.' },
      { name: 'Organizations', description: "Organizations' settings (spec §3, §5.6)." },
      { name: 'Webhook endpoints', description: "The dashboard's endpoint management (spec §2, §5.5)." },
      { name: 'Delivery events', description: 'Delivery records with their attempts, and redelivery (spec §2, §6).' },
      { name: 'Faults', description: 'Failures injected into deliveries and API answers.' },
      { name: 'Validations', description: 'What a test waits for, and the levers of a validation tree.' },
      { name: 'Information requests', description: "The recipient's and reviewers' actions (spec §1.5, §2)." },
      { name: 'Journal and report', description: "The client's requests, their contract violations, and the contract report." },
      { name: 'Sessions', description: 'Isolated worlds on one server, each with its own credentials, clock and state; snapshots of them.' },
      { name: 'Documents', description: "This document." },
    ],
  });
}
