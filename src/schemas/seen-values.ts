import { z } from './zod';

/**
 * A field of what the service sends whose spec row lists only the values seen ("values seen: `medium`,
 * `high`. The full set: not shown"): bvs-mock sends the values it knows, and the schema accepts any other
 * non-empty string, so `bvs-mock validate`, the document and a client generated from it stay open where the
 * spec is (docs/fidelity.md row 89). Inputs (scenario files, request bodies) keep their closed lists.
 */
export function seenValues<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  return z.union([z.enum(values), z.string().min(1)]).openapi({
    description: `${description} Open: the spec lists the values seen, so other values may come (spec §2).`,
    examples: [...values],
  });
}
