import { buildContractReport } from '../../contract';
import { jsonResponse } from '../core-types';
import type { Route } from '../router';

/** `GET /_mock/report`: the contract report of the run so far (src/contract/contract-report.ts). */
export const reportRoute: Route = {
  method: 'GET',
  pattern: '/_mock/report',
  operation: 'control.report',
  access: { kind: 'control' },
  handle(context) {
    return jsonResponse(200, buildContractReport(context.services));
  },
};
