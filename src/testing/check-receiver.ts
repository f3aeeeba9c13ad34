import type { ReceiverCheckOptions } from '../probes/receiver-check';
import type { ReceiverCheckReport } from '../schemas';

export type { ReceiverCheckOptions };
// The refusal's class, from its own small module: importing bvs-mock/testing still loads no server and no scenario.
export { ReceiverUrlError } from '../probes/receiver-url';

/**
 * Grades a webhook receiver against the spec's receiver rules, without a running bvs-mock: probe deliveries
 * built from real scenario payloads (every event type, forged Authorization, duplicates, events out of order,
 * unknown fields and values, a large tree), each result with the rule it tests (`bvs-mock check-receiver`).
 * A URL with credentials (`user:password@`) rejects with a {@link ReceiverUrlError} before anything is sent; a probe
 * that gets no HTTP answer, whatever the reason, reads `unreachable` (docs/fidelity.md row 106).
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
