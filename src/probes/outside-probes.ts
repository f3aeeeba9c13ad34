import { QUICK_ANSWER_MS } from '../contract/contract-report';
import { acknowledged as wholeAndOk } from '../delivery/http-post';
import { EVENT_TYPES, type ProbeExchange } from '../schemas';
import { behaviourProbes, type BehaviourProbe } from './behaviour-probes';
import type { ProbeBody, ProbePayloads } from './probe-payloads';

// The checks seen from outside: what a receiver answers to each probe delivery (src/probes/receiver-check.ts sends them).

/** How the receiver authenticates deliveries, as its endpoint is configured (spec §5.5, §5.6). */
export type ReceiverAuth = { kind: 'none' } | { kind: 'secret'; value: string } | { kind: 'legacy'; value: string };

/**
 * The one error of a probe that got no HTTP answer, whatever the reason (refused, reset, timed out, a TLS failure,
 * not HTTP): the answers never tell a closed port from an open one (docs/fidelity.md row 106).
 */
export const UNREACHABLE = 'unreachable';

type ProbeAnswer = ProbeExchange['answer'];

/** The rules the checks test (spec sections as the spec numbers them). */
const RULES = {
  quickly: '§6 Subscription and delivery, rule 4: answer HTTP 200 quickly and process asynchronously',
  whole: '§6 Subscription and delivery, rule 4: answer HTTP 200 quickly; a truncated answer is not an answer',
  verify: '§5.5 (Authorization: Bearer <WEBHOOK_SECRET>) and §6 Subscription and delivery, rule 4: verify the Authorization header',
  verifyLegacy: '§5.6 (the organization-wide token) and §6 Subscription and delivery, rule 4: verify the Authorization header',
  idempotent: '§6 Subscription and delivery, rules 3 and 4: duplicates happen through retries and redelivery; make handling idempotent',
  order: '§6 Subscription and delivery, rules 2 and 3: retries and redelivery deliver events out of the order of §6 Event order',
  tolerant: '§2: complete field lists are not shown and enumerations list only the values seen, so a receiver must accept fields and values it does not know',
  partial:
    "§2 (a partner batch may show runs_succeeded false on the main batch's ready) and §6 Subscription and delivery, rule 4: check runs_succeeded before using results",
  large: '§1 and §2: a validation carries every partner the registry names, each with its own batch',
} as const;

interface Probe {
  check: string;
  expectation: string;
  rule: string;
  /** The deliveries to send, in order, each with the Authorization header to send (undefined: none). */
  sends: Array<{ body: ProbeBody; authorization: string | undefined }>;
  /** True when every answer is acceptable. */
  grade(answers: ProbeAnswer[]): string | null;
  skipWhy?: string;
}

/** A 2xx that arrived whole: a truncated answer is not an answer (spec §6 Subscription and delivery, rule 4). */
const is2xx = (answer: ProbeAnswer) => wholeAndOk(answer);
/** An HTTP answer that broke off after its head. */
const cutShort = (answer: ProbeAnswer) => answer.status !== null && answer.error !== null;
const described = (answer: ProbeAnswer) => {
  if (answer.status === null) return `no HTTP answer (${UNREACHABLE})`;
  if (!cutShort(answer)) return `${answer.status} in ${answer.duration_ms} ms`;
  const why = answer.error === 'timeout' ? 'the rest of the answer did not come in time' : answer.error!.replace(/^answer_truncated: /, '');
  return `${answer.status} cut short: ${why} (${RULES.whole})`;
};

/** Every answer 2xx, and (when `quickly`) within the threshold. */
function acknowledged(quickly: boolean) {
  return (answers: ProbeAnswer[]): string | null => {
    for (const [index, answer] of answers.entries()) {
      const which = answers.length === 1 ? 'it' : `delivery ${index + 1} of ${answers.length}`;
      if (!is2xx(answer)) return `${which} was not acknowledged: ${described(answer)}`;
      if (quickly && answer.duration_ms !== null && answer.duration_ms > QUICK_ANSWER_MS)
        return `${which} was acknowledged after ${answer.duration_ms} ms; quickly means within ${QUICK_ANSWER_MS} ms`;
    }
    return null;
  };
}

function refused(what: string) {
  return ([answer]: ProbeAnswer[]): string | null => {
    if (answer === undefined) return 'nothing was sent';
    // No answer at all says nothing of whether it checks the header.
    if (answer.status === null || cutShort(answer))
      return `no whole answer to a delivery ${what}: ${described(answer)}, so whether it refuses forged deliveries is unknown`;
    return is2xx(answer)
      ? `it accepted a delivery ${what}: answered ${answer.status} in ${answer.duration_ms} ms (a forged delivery would be processed)`
      : null;
  };
}

/**
 * A payload as the tolerance probes edit it: any path may be read and written, since they change real
 * payloads in place of writing new ones (the edits are checked by the test of each probe's outcome).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: a payload edited by path
type Editable = Record<string, any>;

/** A deep copy with changes, for the tolerance probes. */
function changed(body: ProbeBody, change: (copy: Editable) => void): ProbeBody {
  const copy = structuredClone(body) as Editable;
  change(copy);
  return copy as ProbeBody;
}

export function battery(payloads: ProbePayloads, auth: ReceiverAuth, noObserve: boolean): { outside: Probe[]; behaviour: BehaviourProbe[] } {
  const good = auth.kind === 'none' ? undefined : `Bearer ${auth.value}`;
  /** A delivery with the receiver's own Authorization, or the one given (null: none at all). */
  const send = (body: ProbeBody, authorization: string | null = good ?? null) => ({ body, authorization: authorization ?? undefined });
  const byType = (type: (typeof EVENT_TYPES)[number]) => payloads.byType.get(type)!;
  const ready = byType('data_source_run_batch.ready');
  const probes: Probe[] = EVENT_TYPES.map((type) => ({
    check: `acknowledge:${type}`,
    expectation: `acknowledges a valid ${type} with 2xx within ${QUICK_ANSWER_MS} ms`,
    rule: RULES.quickly,
    sends: [send(byType(type))],
    grade: acknowledged(true),
  }));

  const noAuth = auth.kind === 'none' ? 'checked with auth none: no Authorization to verify or forge' : undefined;
  const verify = auth.kind === 'legacy' ? RULES.verifyLegacy : RULES.verify;
  const wrong = 'Bearer bvs-mock-forged-value';
  const otherScheme = auth.kind === 'none' ? '' : `Basic ${Buffer.from(`bvs:${auth.value}`).toString('base64')}`;
  probes.push(
    {
      check: 'refuse:missing-authorization',
      expectation: 'answers a delivery without Authorization with a non-2xx',
      rule: verify,
      sends: [send(ready, null)],
      grade: refused('without an Authorization header'),
      skipWhy: noAuth,
    },
    {
      check: 'refuse:wrong-bearer',
      expectation: 'answers a delivery with a wrong bearer value with a non-2xx',
      rule: verify,
      sends: [send(ready, wrong)],
      grade: refused(`with Authorization: ${wrong}`),
      skipWhy: noAuth,
    },
    {
      check: 'refuse:other-scheme',
      expectation: 'answers a delivery with another scheme, even carrying the secret, with a non-2xx',
      rule: verify,
      sends: [send(ready, otherScheme)],
      grade: refused('with Authorization: Basic (the secret, but not as Bearer)'),
      skipWhy: noAuth,
    },
  );

  const run = byType('data_source_run_batch.data_source_run.ready');
  const childBatches = byType('data_source_run_batch.child_batches_ready');
  const report = byType('data_source_run_batch.consolidated_report_ready');
  probes.push(
    {
      check: 'acknowledge:duplicate',
      expectation: 'answers a duplicate with 2xx (the same delivery twice in a row)',
      rule: RULES.idempotent,
      sends: [send(run), send(run)],
      grade: acknowledged(false),
    },
    {
      check: 'acknowledge:redelivery',
      expectation: 'answers an event delivered again after another with 2xx',
      rule: RULES.idempotent,
      sends: [send(childBatches), send(report), send(childBatches)],
      grade: acknowledged(false),
    },
    {
      check: 'acknowledge:report-before-child-batches',
      expectation: 'answers consolidated_report_ready sent before child_batches_ready with 2xx',
      rule: RULES.order,
      sends: [send(report), send(childBatches)],
      grade: acknowledged(false),
    },
  );
  const partnerRun = payloads.happyPartners.find(
    (body, index) =>
      body.type === 'data_source_run_batch.data_source_run.ready' &&
      index > payloads.happyPartners.indexOf(payloads.partialReady) &&
      (body.data_source_run as { data_source_run_batch_id: string }).data_source_run_batch_id !==
        (payloads.partialReady.data_source_run_batch as { id: string }).id,
  )!;
  probes.push({
    check: 'acknowledge:partner-run-after-ready',
    expectation: "answers a partner's run sent after the main batch's ready with 2xx",
    rule: RULES.order,
    sends: [send(payloads.partialReady), send(partnerRun)],
    grade: acknowledged(false),
  });

  const tolerance = (check: string, expectation: string, body: ProbeBody): Probe => ({
    check,
    expectation,
    rule: RULES.tolerant,
    sends: [send(body)],
    grade: acknowledged(false),
  });
  probes.push(
    tolerance(
      'tolerate:unknown-fields',
      'acknowledges a payload with fields it does not know, at the root of the resource and nested',
      changed(ready, (copy) => {
        copy.data_source_run_batch.risk_score = 0.42;
        for (const alert of copy.data_source_run_batch.raised_alerts) alert.source_reference = { kind: 'registry', code: 'R-1' };
        copy.data_source_run_batch.data_source_runs[0].attempts = 2;
      }),
    ),
    tolerance(
      'tolerate:alert-severity',
      'acknowledges an alert with a severity other than medium and high ("The full set: not shown")',
      changed(ready, (copy) => {
        const alerts = copy.data_source_run_batch.raised_alerts as Array<Record<string, unknown>>;
        const template = alerts[0] ?? {
          id: 'rlal_probe',
          name: 'Probe alert',
          entity_validation_id: copy.data_source_run_batch.entity_validation_id,
          data_source_run_batch_id: copy.data_source_run_batch.id,
        };
        alerts.splice(0, alerts.length, { ...template, severity: 'critical' });
      }),
    ),
    tolerance(
      'tolerate:validation-status',
      'acknowledges an entity validation with a status other than created ("value seen")',
      changed(byType('entity_validation.stakeholder.created'), (copy) => {
        copy.stakeholder.status = 'in_progress';
      }),
    ),
    tolerance(
      'tolerate:information-request-status',
      'acknowledges an information request with a status it does not know',
      changed(byType('information_request.status_updated'), (copy) => {
        copy.information_request.status = 'archived';
      }),
    ),
    tolerance(
      'tolerate:run-type',
      'acknowledges a run of a type it does not know (another country and source)',
      changed(run, (copy) => {
        copy.data_source_run.type = 'pe/sunat';
      }),
    ),
    {
      check: 'partial:ready-with-partner-running',
      expectation: "acknowledges a main batch's ready while a partner batch still shows runs_succeeded false",
      rule: RULES.partial,
      sends: [send(partialWithRunningPartner(payloads.partialReady))],
      grade: acknowledged(true),
    },
    {
      check: 'large:ready',
      expectation: `acknowledges a large tree's ready within ${QUICK_ANSWER_MS} ms`,
      rule: RULES.large,
      sends: [send(payloads.largeTree.ready)],
      grade: acknowledged(true),
    },
    {
      check: 'large:child-batches-ready',
      expectation: `acknowledges a large tree's child_batches_ready (50 child batches) within ${QUICK_ANSWER_MS} ms`,
      rule: RULES.large,
      sends: [send(payloads.largeTree.childBatchesReady)],
      grade: acknowledged(true),
    },
  );
  const forged = probes.filter((probe) => probe.check.startsWith('refuse:')).map((probe) => probe.sends[0]!.authorization);
  const observeWhy = noObserve
    ? 'no side-effect probe was given (--observe URL; observe in the control API and bvs-mock/testing), so what the receiver processed is unseen'
    : undefined;
  return { outside: probes, behaviour: behaviourProbes(payloads, good, forged, { observe: observeWhy, auth: noAuth }) };
}

/** happy-partners' ready, with at least one child batch still running (it is so when played; kept so if scenarios change). */
function partialWithRunningPartner(ready: ProbeBody): ProbeBody {
  return changed(ready, (copy) => {
    const children = copy.data_source_run_batch.child_batches as Array<{ runs_succeeded: boolean }>;
    if (children.length > 0 && children.every((child) => child.runs_succeeded)) children[0]!.runs_succeeded = false;
  });
}
