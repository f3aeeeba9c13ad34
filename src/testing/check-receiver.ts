import type { ReceiverCheckOptions } from '../probes/receiver-check';
import type { ReceiverCheckReport } from '../schemas';

export type { ReceiverCheckOptions };

/**
 * Grades a webhook receiver against the spec's receiver rules, without a running bvs-mock: probe deliveries
 * built from real scenario payloads (every event type, forged Authorization, duplicates, events out of order,
 * unknown fields and values, a large tree), each result with the rule it tests (`bvs-mock check-receiver`).
 *
 * @example
 * const report = await checkReceiver({ url: receiver.url, auth: { kind: 'secret', value: 'whsec_test' } });
 * expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([]);
 */
export async function checkReceiver(options: ReceiverCheckOptions): Promise<ReceiverCheckReport> {
  // Loaded when used: importing bvs-mock/testing loads no server.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const probes = require('../probes/receiver-check') as typeof import('../probes/receiver-check');
  return probes.checkReceiver(options);
}
