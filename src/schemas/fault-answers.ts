import { FaultRequest } from './delivery';
import { outbound } from './outbound';
import { z } from './zod';

/** What the control API answers about the faults injected into deliveries and API answers (`GET /_mock/faults`). */

/** An injected fault with its id and how many times it applied. */
const faultRecord = { id: z.string(), applied: z.number().int().nonnegative().openapi({ description: 'How many deliveries or requests it hit so far.' }) };
const [duplicate, delay, tolerance, apiError, apiReset, tokenRevoked, apiLatency] = FaultRequest.options;
export const ActiveFault = z
  .discriminatedUnion('kind', [
    outbound(duplicate.extend(faultRecord)),
    outbound(delay.extend(faultRecord)),
    outbound(tolerance.extend(faultRecord)),
    outbound(apiError.extend(faultRecord)),
    outbound(apiReset.extend(faultRecord)),
    outbound(tokenRevoked.extend(faultRecord)),
    outbound(apiLatency.extend(faultRecord)),
  ])
  .openapi('ActiveFault');

export const FaultList = outbound(z.strictObject({ faults: z.array(ActiveFault) }), 'FaultList');

export type ActiveFault = z.infer<typeof ActiveFault>;
