/**
 * The one zod instance of bvs-mock, extended with `.openapi()` metadata so that
 * schemas can name themselves and carry examples for the OpenAPI document.
 * Every schema file imports `z` from here, never from 'zod' directly, so the
 * extension and the messages below apply before any schema is built.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

// A missing field reads "required field is missing" rather than zod's
// "expected string, received undefined": the most common mistake deserves the plainest words.
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return `required field is missing (expected ${issue.expected})`;
    if (issue.code === 'invalid_value' && issue.input === undefined)
      return `required field is missing (expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')})`;
    return undefined;
  },
});

export { z };
