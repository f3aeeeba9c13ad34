import type { ReceiverCheckOptions } from '../probes/receiver-check';
import type { ProcessedState, ReceiverCheckReport } from '../schemas';

export type { ProcessedState, ReceiverCheckOptions };
// The refusal's class, from its own small module: importing bvs-mock/testing still loads no server and no scenario.
export { ReceiverUrlError } from '../probes/receiver-url';

/**
 * Grades a webhook receiver against the spec's receiver rules, without a running bvs-mock: probe deliveries
 * built from real scenario payloads (every event type, forged Authorization, duplicates, events out of order,
 * unknown fields and values, a large tree), each result with the rule it tests (`bvs-mock check-receiver`).
 * `auth` is required, as `--auth` is (`{ kind: 'none' }` only for an endpoint with auth_type none, and its
 * `refuse:*` checks are then skipped). `observe`, the receiver's side-effect probe (a URL or a callback answering a
 * {@link ProcessedState}, docs/receiver-probe.md), makes the `processed:*` checks grade what the receiver did;
 * without it they are skipped. `report.outcome` is `pass` only when every check ran and passed.
 * A URL with credentials (`user:password@`) rejects with a {@link ReceiverUrlError} before anything is sent; a probe
 * that gets no HTTP answer, whatever the reason, reads `unreachable` (docs/fidelity.md row 106).
 *
 * @example
 * const report = await checkReceiver({ url: receiver.url, auth: { kind: 'secret', value: 'whsec_test' }, observe: async () => receiver.processed() });
 * expect(report.results.filter((result) => result.outcome !== 'pass')).toEqual([]);
 */
export async function checkReceiver(options: ReceiverCheckOptions): Promise<ReceiverCheckReport> {
  // Loaded when used: importing bvs-mock/testing loads no server.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const probes = require('../probes/receiver-check') as typeof import('../probes/receiver-check');
  return probes.checkReceiver(options);
}
