import { DeliveryLog } from '../../src/delivery/delivery-log';
import type { DeliveryTarget } from '../../src/delivery/delivery-record';
import { moveStatus, type DeliveryEnding } from '../../src/delivery/delivery-status';
import type { DeliveryStatus } from '../../src/schemas';

// The one rule for a delivery's status (spec §6 Subscription and delivery: every record ends succeeded,
// failed or expired, never dropped; docs/fidelity.md rows 15, 99).

const ENDINGS: DeliveryEnding[] = [
  { status: 'succeeded', reason: null },
  { status: 'failed', reason: 'retries_exhausted' },
  { status: 'failed', reason: 'endpoint_disabled' },
  { status: 'failed', reason: 'receiver_backlog' },
  { status: 'expired', reason: 'endpoint_disabled' },
  { status: 'expired', reason: 'endpoint_deleted' },
];
const ENDED: DeliveryStatus[] = ['succeeded', 'failed', 'expired'];

test.each(ENDINGS)('a pending delivery may end $status ($reason), and so leaves pending', (ending) => {
  expect(moveStatus('pending', ending)).toEqual({ leftPending: true });
});

test.each(ENDED)('a delivery that is %s may still become succeeded, and was not pending', (from) => {
  expect(moveStatus(from, { status: 'succeeded', reason: null })).toEqual({ leftPending: false });
});

test.each(ENDED.flatMap((from) => ENDINGS.filter((ending) => ending.status !== 'succeeded').map((ending) => [from, ending] as const)))(
  'a delivery that is %s cannot fail or expire again: %o throws',
  (from, ending) => {
    expect(() => moveStatus(from, ending)).toThrow(`a delivery that is "${from}" cannot become ${ending.status}; once ended, it can only become succeeded`);
  },
);

test('nothing moves back to pending, or to a status there is not', () => {
  expect(() => moveStatus('failed', { status: 'pending', reason: null } as never)).toThrow(
    'cannot move a delivery to "pending"; it ends succeeded, failed or expired',
  );
  expect(() => moveStatus('pending', { status: 'lost', reason: null } as never)).toThrow('cannot move a delivery to "lost"');
});

test('a status with a reason it does not take throws, naming the reasons it takes', () => {
  expect(() => moveStatus('pending', { status: 'succeeded', reason: 'retries_exhausted' } as never)).toThrow(
    'a delivery cannot end succeeded with the reason "retries_exhausted"; succeeded takes null',
  );
  expect(() => moveStatus('pending', { status: 'expired', reason: 'receiver_backlog' } as never)).toThrow(
    'expired takes "endpoint_disabled" or "endpoint_deleted"',
  );
  expect(() => moveStatus('pending', { status: 'failed', reason: null } as never)).toThrow(
    'failed takes "retries_exhausted" or "endpoint_disabled" or "receiver_backlog"',
  );
});

const TARGET: DeliveryTarget = { model: 'endpoint', endpointId: 'we_1', url: 'https://receiver.test/hooks', authType: 'none' };

const EVENT = { type: 'data_source_run_batch.ready', organizationId: 'org_1', validationId: 'evl_1', resourceId: 'evl_1' } as const;

/** The wall clock the logs of these tests read: a fixed instant, so what an attempt records is known. */
const WALL_NOW = Date.parse('2026-11-25T18:30:00.250Z');

function logWith(count: number, limits: { maxRecords: number; maxPendingPerReceiver: number } = { maxRecords: 100, maxPendingPerReceiver: 100 }) {
  const log = new DeliveryLog({ ...limits, wallNow: () => WALL_NOW });
  const records = Array.from({ length: count }, (_, index) =>
    log.create({
      id: `evt_${index + 1}`,
      event: EVENT,
      target: TARGET,
      body: '{"type":"data_source_run_batch.ready"}',
      createdAt: '2026-01-15T10:00:00.000Z',
    }),
  );
  return { log, records };
}

test('the log starts every record pending in its receiver’s backlog, and an ending takes it out once', () => {
  const { log, records } = logWith(3, { maxRecords: 100, maxPendingPerReceiver: 3 });
  expect(records.map((created) => created.backlog)).toEqual([0, 1, 2]);
  expect(records.map((created) => created.record.status)).toEqual(['pending', 'pending', 'pending']);
  expect(log.backlogFull(3)).toBe(true);
  log.end(records[0]!.record, { status: 'succeeded', reason: null });
  // A redelivery that succeeds again does not take the record out of the backlog twice.
  log.end(records[0]!.record, { status: 'succeeded', reason: null });
  expect(log.counts()).toEqual({ pending: 2, succeeded: 1, failed: 0, expired: 0 });
  const fourth = log.create({ id: 'evt_4', event: EVENT, target: TARGET, body: '{}', createdAt: '2026-01-15T10:00:00.000Z' });
  expect(fourth.backlog).toBe(2);
  expect(log.backlogFull(fourth.backlog)).toBe(false);
});

test('a move the rule refuses throws from the log and leaves the record as it was', () => {
  const { log, records } = logWith(1);
  const { record } = records[0]!;
  log.end(record, { status: 'expired', reason: 'endpoint_deleted' });
  expect(() => log.end(record, { status: 'failed', reason: 'retries_exhausted' })).toThrow('a delivery that is "expired" cannot become failed');
  expect(record.status).toBe('expired');
  expect(record.reason).toBe('endpoint_deleted');
  expect(log.counts()).toEqual({ pending: 0, succeeded: 0, failed: 0, expired: 1 });
});

test('a record that ended and then succeeded carries no reason', () => {
  const { log, records } = logWith(1);
  const { record } = records[0]!;
  log.end(record, { status: 'failed', reason: 'retries_exhausted' });
  log.end(record, { status: 'succeeded', reason: null });
  expect({ status: record.status, reason: record.reason }).toEqual({ status: 'succeeded', reason: null });
});

test('an attempt records its real time from the wall clock the log was given, beside its simulated time', () => {
  const { log, records } = logWith(1);
  const attempt = log.recordAttempt(records[0]!.record, 'first', '2026-01-15T10:00:00.000Z', { status: 200, body: 'ok', durationMs: 3, error: null });
  expect({ at: attempt.at, real_at: attempt.real_at }).toEqual({ at: '2026-01-15T10:00:00.000Z', real_at: '2026-11-25T18:30:00.250Z' });
});
