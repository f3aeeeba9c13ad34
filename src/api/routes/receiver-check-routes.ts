import { EndpointReceiverCheck, EndpointReceiverCheckList, OrganizationQuery, ReceiverCheckRequest, parseWith } from '../../schemas';
import { receiverUrl } from '../../probes/receiver-url';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';

/**
 * `POST /_mock/receiver-checks`: the receiver check (src/probes/receiver-check.ts) against one of the
 * organization's endpoints, with its authentication; `GET` lists the checks since the last reset. Their
 * failures go into the contract report.
 */
export const receiverCheckRoutes = [
  {
    method: 'POST',
    pattern: '/_mock/receiver-checks',
    operation: 'control.receiver_checks.run',
    access: { kind: 'control' },
    document: {
      tags: ['Webhook endpoints'],
      summary: "Check an endpoint's receiver against the spec's receiver rules",
      description:
        "Sends a battery of probe deliveries built from real scenario payloads to the endpoint, with its Authorization: every event type, forged Authorization headers, duplicates and a redelivery, events out of order, fields and values it does not know, a partial ready, a 50-partner tree. Each result names the rule and spec section it tests, with the requests sent and the answers. The endpoint's own authorization is part of the check (an endpoint with auth_type none is checked without, its `refuse:*` checks skipped, and the summary says so). With `observe`, the receiver's side-effect probe (a ProcessedState, docs/receiver-probe.md), the `processed:*` checks grade what it did with duplicates, a redelivery, events out of order and forged deliveries; without it they are skipped. The report's `outcome` is `pass` only when every check ran and passed, `incomplete` when none failed and some were skipped. Probes carry `X-Bvs-Mock-Probe: <check>`. Answers once every probe has ended (docs/fidelity.md row 88). An endpoint whose URL carries credentials (`user:password@`) or names a link-local or cloud metadata address is refused with 422; a probe that gets no HTTP answer, for whatever reason, reads `unreachable` with no duration and no excerpt (docs/fidelity.md row 106).",
      body: { schema: ReceiverCheckRequest, example: { endpoint_id: 'whe_01JD5ZQ8K3M7T2XW9Y4B6C1N0P', observe: 'http://127.0.0.1:3000/test/processed' } },
      answer: { status: 201, description: 'The check, graded.', schema: EndpointReceiverCheck },
      errors: ['not_found', 'conflict'],
    },
    async handle(context) {
      const body = checkBody(context, (value) => parseWith(ReceiverCheckRequest, value), context.json());
      const { endpoints, receiverChecks, clock } = context.world;
      const { probeTransport } = context.server;
      const stored = endpoints.get(context.organizationId, body.endpoint_id);
      if (!stored) throw problems.notFound('webhook endpoint', body.endpoint_id);
      const { endpoint } = stored;
      // What the control API may probe: the endpoint's URL, without credentials, at no metadata address (docs/fidelity.md row 106).
      const target = receiverUrl(endpoint.url, 'control');
      if (!target.ok) throw problems.receiverUrlRefused(endpoint.id, target);
      if (endpoint.auth_type === 'oauth')
        throw problems.conflict(
          `Endpoint ${endpoint.id} authenticates with OAuth; the receiver check sends the Authorization of endpoints with auth_type none or secret. Check the receiver from the command line with a token: bvs-mock check-receiver ${target.url} --auth secret:<a token your provider issued>.`,
        );
      const observe = body.observe === undefined ? undefined : receiverUrl(body.observe, 'control');
      if (observe !== undefined && !observe.ok)
        throw problems.receiverUrlRefused(endpoint.id, { ...observe, message: `observe: ${observe.message}` }, '$.observe');
      const auth = endpoint.auth_type === 'secret' && stored.secret !== null ? { kind: 'secret' as const, value: stored.secret } : { kind: 'none' as const };
      const generation = receiverChecks.begin();
      // Loaded when used: the probes play scenarios on a mock of their own.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { runReceiverCheck } = require('../../probes/receiver-check') as typeof import('../../probes/receiver-check');
      const report = await runReceiverCheck({
        url: endpoint.url,
        auth,
        observe: observe?.url,
        reach: 'control',
        payloads: () => receiverChecks.payloads(),
        ...probeTransport,
      });
      const kept = receiverChecks.add({ organization_id: context.organizationId, endpoint_id: endpoint.id, checked_at: clock.iso(), report }, generation);
      return jsonResponse(201, kept);
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/receiver-checks',
    operation: 'control.receiver_checks.list',
    access: { kind: 'control' },
    pure: true,
    document: {
      tags: ['Webhook endpoints'],
      summary: 'The receiver checks since the last reset',
      description: "Oldest first, the organization's, each with every result, request and answer (the newest 50 are kept).",
      query: OrganizationQuery,
      answer: { status: 200, description: 'The checks.', schema: EndpointReceiverCheckList },
    },
    handle: (context) => jsonResponse(200, { receiver_checks: context.world.receiverChecks.list(context.organizationId) }),
  },
] as const satisfies readonly Route[];
