/**
 * The one zod instance of bvs-mock, extended with `.openapi()` metadata so that
 * schemas can name themselves and carry examples for the OpenAPI document.
 * Every schema file imports `z` from here, never from 'zod' directly, so the
 * extension and the messages below apply before any schema is built.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { issueMessage } from './issue-messages';

extendZodWithOpenApi(z);

// Every check without a message of its own speaks in the house form (issue-messages.ts): a missing field
// reads "required field is missing", a wrong value "must be …, got …", never zod's own wording.
z.config({ customError: (issue) => issueMessage(issue) });

export { z };
