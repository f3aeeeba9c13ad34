import { LABEL_HEADER, MAX_LABEL_CHARS } from './request-label';
import { z } from './zod';

/** A label in an answer: present only when the request carried one. */
export const LabelField = z
  .string()
  .max(MAX_LABEL_CHARS)
  .optional()
  .openapi({ description: `The label the request carried (header \`${LABEL_HEADER}\`; bvs-mock/testing sends the current test's name); absent when none.` });
