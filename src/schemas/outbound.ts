import type { ZodObject } from 'zod';

/**
 * Marks an object the service sends (a response body or an event resource).
 *
 * In zod the object stays strict: bvs-mock checks its own outgoing bodies with
 * it, so the mock cannot send a field the contract does not know. In the OpenAPI
 * document it is published open (`additionalProperties: true`), because the real
 * service's complete field lists are "not shown" (spec §2) and a client must
 * tolerate fields it does not know. Objects a client sends stay closed in both.
 * See docs/fidelity.md, "Strictness of the document".
 *
 * @param schema a `z.strictObject(...)`
 * @param name the component name in the document, for a named resource
 */
export function outbound<T extends ZodObject>(schema: T, name?: string): T {
  return name === undefined ? schema.openapi({ additionalProperties: true }) : schema.openapi(name, { additionalProperties: true });
}
