import { DriftAnswer } from '../../schemas';
import { jsonResponse } from '../core-types';
import type { Route } from '../router';

/** The path of the drift `bvs-mock proxy` found; the proxy answers it itself, from what went through it. */
export const DRIFT_PATH = '/_mock/drift';

/**
 * `GET /_mock/drift`: the differences `bvs-mock proxy` found between the contract and the upstream's answers (and the
 * client's requests), live. `bvs-mock serve` is its own contract, so it answers an empty list: the route is here so the
 * control document and the typed client know its shape.
 */
export const driftRoute = {
  method: 'GET',
  pattern: DRIFT_PATH,
  operation: 'control.drift',
  access: { kind: 'control' },
  document: {
    tags: ['Journal and report'],
    summary: 'The drift a proxy found',
    description:
      'On `bvs-mock proxy --upstream URL`: each difference between the contract and what went through the proxy (unknown and missing fields, types, values beyond those seen, status codes and error bodies the document does not list, slow answers), counted per operation, JSON path and kind, with the first exchange that showed it. Credentials are never in it. On `bvs-mock serve`, which is its own contract, the list is empty.',
    answer: { status: 200, description: 'The differences found so far.', schema: DriftAnswer },
  },
  handle: () => jsonResponse(200, { differences: [], differences_omitted: 0, exchanges: 0 } satisfies DriftAnswer),
} as const satisfies Route;
