import { performance } from 'node:perf_hooks';
import type { ProcessedState, ProbeExchange, ReceiverCheckResult } from '../schemas';
import { ObserveError, type Observe } from './observe';
import type { ProbeBody, ProbePayloads } from './probe-payloads';

/**
 * The behaviour checks (`processed:*`): what the receiver did with duplicates, a redelivery, events out of order and
 * forged deliveries, graded by its side-effect probe (docs/receiver-probe.md). Without a probe they are skipped:
 * an answer seen from outside never tells whether an event was processed once.
 */

/** What a behaviour check expects of one delivery's event: processed exactly once, never, or at least once (the marker awaited). */
type Expect = 'once' | 'never' | 'marker';

interface BehaviourSend {
  body: ProbeBody;
  /** The Authorization header to send; undefined: none. */
  authorization: string | undefined;
  expect: Expect;
  /** Sends with different variants name different resources; the same variant, the same ones (a duplicate). */
  variant: string;
}

export interface BehaviourProbe {
  check: string;
  expectation: string;
  rule: string;
  sends: BehaviourSend[];
  skipWhy?: string;
}

/** Sends one delivery of a check (ids tagged by `tag`) and gives back what was sent and answered. */
export type Deliver = (body: ProbeBody, authorization: string | undefined, check: string, tag: string) => Promise<{ sent: ProbeBody; exchange: ProbeExchange }>;

const RULES = {
  idempotent: '§6 Subscription and delivery, rules 3 and 4: duplicates happen through retries and redelivery; make handling idempotent',
  order:
    '§6 Subscription and delivery, rules 2 and 3, and §6 Event order, rule 3: retries and redelivery deliver consolidated_report_ready before child_batches_ready; each is processed once, in the spec order or whatever order the receiver makes safe',
  forged: '§5.5 and §6 Subscription and delivery, rule 4: verify the Authorization header; a forged delivery is not processed',
} as const;

/** The behaviour checks, from the same real payloads as the others. */
export function behaviourProbes(
  payloads: ProbePayloads,
  good: string | undefined,
  forged: Array<string | undefined>,
  skipWhy: { observe?: string; auth?: string },
): BehaviourProbe[] {
  const byType = (type: ProbeBody['type']) => payloads.byType.get(type)!;
  const run = byType('data_source_run_batch.data_source_run.ready');
  const childBatches = byType('data_source_run_batch.child_batches_ready');
  const report = byType('data_source_run_batch.consolidated_report_ready');
  const ready = byType('data_source_run_batch.ready');
  const send = (body: ProbeBody, expect: Expect, variant = ''): BehaviourSend => ({ body, authorization: good, expect, variant });
  return [
    {
      check: 'processed:duplicate-once',
      expectation: 'processes a delivery sent twice once, by its side-effect probe',
      rule: RULES.idempotent,
      sends: [send(run, 'once'), send(run, 'once')],
      skipWhy: skipWhy.observe,
    },
    {
      check: 'processed:redelivery-once',
      expectation: 'processes an event delivered again after another once, by its side-effect probe',
      rule: RULES.idempotent,
      sends: [send(childBatches, 'once'), send(report, 'once'), send(childBatches, 'once')],
      skipWhy: skipWhy.observe,
    },
    {
      check: 'processed:out-of-order',
      expectation:
        'processes consolidated_report_ready sent before child_batches_ready, and child_batches_ready, once each (none dropped), by its side-effect probe',
      rule: RULES.order,
      sends: [send(report, 'once'), send(childBatches, 'once')],
      skipWhy: skipWhy.observe,
    },
    {
      check: 'processed:forged-ignored',
      expectation:
        'processes none of the forged deliveries (missing, wrong or other-scheme Authorization), by its side-effect probe, once a valid delivery sent after them is processed',
      rule: RULES.forged,
      sends: [...forged.map((authorization, index) => ({ ...send(ready, 'never', `f${index + 1}`), authorization })), send(run, 'marker', 'm')],
      skipWhy: skipWhy.auth ?? skipWhy.observe,
    },
  ];
}

/** An event as the probe names it: its type and its resource's id. */
function eventKey(body: ProbeBody): { type: string; id: string } {
  const resource = Object.entries(body).find(([key]) => key !== 'type')?.[1] as { id?: unknown } | undefined;
  return { type: body.type, id: typeof resource?.id === 'string' ? resource.id : '' };
}

const keyText = (key: { type: string; id: string | null }) => `${key.type} ${key.id ?? ''}`;

function counts(state: ProcessedState): Map<string, number> {
  const map = new Map<string, number>();
  for (const event of state.processed) map.set(keyText(event), (map.get(keyText(event)) ?? 0) + 1);
  return map;
}

/** Options of {@link runBehaviourProbe}. */
export interface BehaviourRun {
  observe: Observe;
  deliver: Deliver;
  /** Real milliseconds to wait for the receiver to process what it acknowledged. */
  waitMs: number;
  /** Tags this check's ids: unique to the check and to this run, so that no earlier run's processing counts. */
  tag: string;
}

const POLL_MS = 25;
/** After every awaited event is seen, a probe without `pending` is read once more after this long (a late second processing). */
const QUIET_MS = 100;

/** Sends a behaviour check's deliveries and grades what the receiver processed, by its probe. */
export async function runBehaviourProbe(probe: BehaviourProbe, options: BehaviourRun): Promise<ReceiverCheckResult> {
  const result = (outcome: 'pass' | 'fail', reason: string | null, exchanges: ProbeExchange[], processed: ReceiverCheckResult['processed']) => ({
    check: probe.check,
    expectation: probe.expectation,
    rule: probe.rule,
    outcome,
    reason,
    exchanges,
    processed,
  });
  let before: Map<string, number>;
  try {
    before = counts(await options.observe());
  } catch (error) {
    return result('fail', unread(error), [], null);
  }
  const exchanges: ProbeExchange[] = [];
  const events: Array<{ key: { type: string; id: string }; expect: Expect }> = [];
  for (const send of probe.sends) {
    const { sent, exchange } = await options.deliver(send.body, send.authorization, probe.check, `${options.tag}${send.variant}`);
    exchanges.push(exchange);
    const key = eventKey(sent);
    if (!events.some((event) => keyText(event.key) === keyText(key))) events.push({ key, expect: send.expect });
  }
  const awaited = events.filter((event) => event.expect !== 'never');
  const deadline = performance.now() + options.waitMs;
  let now: Map<string, number>;
  const times = (key: { type: string; id: string }) => (now.get(keyText(key)) ?? 0) - (before.get(keyText(key)) ?? 0);
  try {
    for (;;) {
      const state = await options.observe();
      now = counts(state);
      const settled = awaited.every((event) => times(event.key) >= 1) && (state.pending ?? 0) === 0;
      if (settled && state.pending === undefined) {
        await pause(QUIET_MS);
        now = counts(await options.observe());
      }
      if (settled || performance.now() >= deadline) break;
      await pause(POLL_MS);
    }
  } catch (error) {
    return result('fail', unread(error), exchanges, null);
  }
  const processed = events.map((event) => ({ ...event.key, times: times(event.key) }));
  const wrong = events
    .map((event) => ({ event, count: times(event.key) }))
    .filter(({ event, count }) => (event.expect === 'once' ? count !== 1 : event.expect === 'never' ? count !== 0 : count < 1));
  if (wrong.length === 0) return result('pass', null, exchanges, processed);
  const marker = wrong.find(({ event }) => event.expect === 'marker');
  if (marker !== undefined)
    return result(
      'fail',
      `the valid delivery sent after the forged ones (${keyText(marker.event.key)}) was not processed within ${options.waitMs} ms, so whether a forged one changed anything is unknown`,
      exchanges,
      processed,
    );
  const said = wrong.map(
    ({ event, count }) => `${keyText(event.key)} was processed ${count} time${count === 1 ? '' : 's'}${event.expect === 'once' ? ', not once' : ''}`,
  );
  const why = wrong.some(({ event }) => event.expect === 'never')
    ? ' (a forged delivery was processed)'
    : wrong.some(({ count }) => count === 0)
      ? ` (within ${options.waitMs} ms)`
      : '';
  return result('fail', `${said.join('; ')}${why}`, exchanges, processed);
}

function unread(error: unknown): string {
  if (error instanceof ObserveError) return error.message;
  return `the side-effect probe failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** A real pause, held (not unref'd): the command line waits for the check to end. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
