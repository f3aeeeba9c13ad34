import { validatePayload } from '../contract';
import type { ContractReport } from '../contract';
import type { ReceivedWebhook, WebhookReceiver } from './webhook-receiver';
import { toHaveReceived, type ReceivedExpectation } from './received-matcher';

/** What a matcher answers, as jest and vitest both read it. */
interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** A webhook as a matcher takes it: what a receiver recorded, or a parsed body. */
type WebhookLike = ReceivedWebhook | Record<string, unknown>;

function bodyOf(webhook: unknown): unknown {
  return typeof webhook === 'object' && webhook !== null && 'raw' in webhook && 'headers' in webhook ? (webhook as ReceivedWebhook).body : webhook;
}

function typesOf(received: WebhookReceiver | readonly WebhookLike[]): string[] {
  const list = Array.isArray(received) ? received : (received as WebhookReceiver).received;
  return list.map((webhook) => String((bodyOf(webhook) as { type?: unknown } | undefined)?.type ?? '(no type)'));
}

/**
 * The matchers of bvs-mock/testing, for `expect.extend` in jest or vitest (`bvs-mock/testing/jest` and
 * `bvs-mock/testing/vitest` register them and their types). Each failure says what broke, with JSON paths.
 *
 * @example
 * expect.extend(bvsMatchers);
 * expect(receiver.received[0]).toBeValidBvsEvent();
 * expect(receiver).toHaveReceivedInOrder(['data_source_run_batch.ready', 'data_source_run_batch.consolidated_report_ready']);
 * await expect(mock).toHaveReceived({ method: 'POST', path: '/api/v2/entity_validations', times: 1 });
 */
export const bvsMatchers = {
  /** The webhook (a receiver's record, or a body) is an event envelope the spec allows, for its `type`. */
  toBeValidBvsEvent(received: unknown): MatcherResult {
    const check = validatePayload(bodyOf(received));
    return {
      pass: check.ok,
      message: () =>
        check.ok
          ? 'expected the webhook not to be a valid bvs event, but it is'
          : `expected a valid bvs event (${check.schema}):\n${check.issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n')}`,
    };
  },

  /** The body satisfies the named schema of the contract (`EntityValidation`, `DataSourceRunBatch`, ... as `bvs-mock validate --schema` names them). */
  toSatisfyContract(received: unknown, schemaName: string): MatcherResult {
    const check = validatePayload(bodyOf(received), schemaName);
    return {
      pass: check.ok,
      message: () =>
        check.ok
          ? `expected the body not to satisfy ${schemaName}, but it does`
          : `expected the body to satisfy ${schemaName}:\n${check.issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n')}`,
    };
  },

  /** The receiver (or list of webhooks) got these event types in this order, others possibly between them. */
  toHaveReceivedInOrder(received: WebhookReceiver | readonly WebhookLike[], types: readonly string[]): MatcherResult {
    const got = typesOf(received);
    let next = 0;
    for (const type of got) if (type === types[next]) next += 1;
    const pass = next === types.length;
    return {
      pass,
      message: () =>
        pass
          ? `expected not to receive ${types.join(' → ')} in that order, but did`
          : `expected to receive ${types.join(' → ')} in that order; "${types[next]}" is missing after ${next === 0 ? 'the start' : `"${types[next - 1]}"`}.\nReceived, in order:\n${got.map((type) => `  ${type}`).join('\n')}`,
    };
  },
  /**
   * The client sent requests meeting the criteria (operation, or method and path; body fields; label; status) as many
   * times as asked (default: at least once), read from the mock's journal; on failure, the closest requests and how
   * each differed. Async: `await expect(mock).toHaveReceived({...})`.
   */
  toHaveReceived(received: unknown, expectation: ReceivedExpectation): Promise<MatcherResult> {
    return toHaveReceived(received, expectation);
  },
};

/** The types of the matchers, for declaration merging into jest's and vitest's `expect`. */
export interface BvsMatchers<R = unknown> {
  toBeValidBvsEvent(): R;
  toSatisfyContract(schemaName: string): R;
  toHaveReceivedInOrder(types: readonly string[]): R;
  toHaveReceived(expectation: ReceivedExpectation): Promise<R>;
}

/** Something that can give the contract report: a running bvs-mock's control client. */
interface ReportSource {
  report(): Promise<ContractReport>;
}

/**
 * Fails (throws) when bvs-mock recorded any contract violation in the client's requests, with each one:
 * the request, its answer, and the JSON path of what broke (like msw's `onUnhandledRequest: 'error'`).
 *
 * @example
 * afterEach(() => expectNoViolations(bvs.control));
 */
export async function expectNoViolations(source: ReportSource | { control: ReportSource }): Promise<void> {
  const control = 'control' in source ? source.control : source;
  const { violations } = await control.report();
  if (violations.issues === 0) return;
  const lines = violations.requests.flatMap((request) => [
    ...request.violations.map(
      (issue) => `  ${request.method} ${request.path} → ${request.status} (${request.id}): ${issue.path}: ${issue.message} [${issue.code}]`,
    ),
    ...(request.violations_omitted === undefined
      ? []
      : [`  ${request.method} ${request.path} → ${request.status} (${request.id}): and ${request.violations_omitted} more violations`]),
  ]);
  throw new Error(
    `bvs-mock recorded ${violations.issues} contract violation${violations.issues === 1 ? '' : 's'} in ${violations.violating_requests} request${violations.violating_requests === 1 ? '' : 's'}:\n${lines.join('\n')}`,
  );
}
