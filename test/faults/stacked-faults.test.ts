import fc from 'fast-check';
import { FaultPlan } from '../../src/faults/fault-plan';
import { FaultRequest, type ActiveFault } from '../../src/schemas';
import { DEFAULT_API_KEY, bearer, useTestServer } from '../support/api-test-server';

// Faults stacked with POST /_mock/faults fire in the order they were added, each exactly `count` times, and
// `applied` counts what fired (docs/fidelity.md row 123). Before, every matching fault counted as applied on the
// first request although only one answered it: a count-1 429 then a count-1 503 answered 429, 200, 200 with both
// `applied: 1`, and a token revocation added later answered before an earlier 429, which never fired.

const t = useTestServer();

const addFault = async (body: Record<string, unknown>) => expect((await t.json('POST', '/_mock/faults', body)).status).toBe(201);
const applied = async () => (await t.call('/_mock/faults')).json<{ faults: ActiveFault[] }>().faults.map((fault) => [fault.kind, fault.applied]);

test('a count-1 429 then a count-1 503 answer 429, then 503, then the normal answer, each applied once (they answered 429, 200, 200)', async () => {
  await addFault({ kind: 'api_error', code: 'rate_limited', count: 1 });
  await addFault({ kind: 'api_error', code: 'service_unavailable', count: 1 });
  const statuses: number[] = [];
  for (let index = 0; index < 3; index += 1) statuses.push((await t.get('/api/v2/webhook_endpoints', DEFAULT_API_KEY)).status);
  expect(statuses).toEqual([429, 503, 200]);
  expect(await applied()).toEqual([
    ['api_error', 1],
    ['api_error', 1],
  ]);
});

test('a token revocation added after a 429 fires after it, not before (the later fault answered first and the 429 never fired)', async () => {
  const token = (await t.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret' })).json<{
    access_token: string;
  }>().access_token;
  await addFault({ kind: 'api_error', code: 'rate_limited', count: 1 });
  await addFault({ kind: 'token_revoked', count: 1 });
  const first = await t.call('/api/v2/webhook_endpoints', { headers: bearer(token) });
  const second = await t.call('/api/v2/webhook_endpoints', { headers: bearer(token) });
  expect([first.status, first.json<{ error: { code: string } }>().error.code]).toEqual([429, 'rate_limited']);
  expect([second.status, second.json<{ error: { code: string } }>().error.code]).toEqual([401, 'invalid_token']);
  expect(await applied()).toEqual([
    ['api_error', 1],
    ['token_revoked', 1],
  ]);
});

test('latency adds to the answer of an earlier error fault, and counts as applied with it', async () => {
  await addFault({ kind: 'api_error', code: 'internal_error', count: 1 });
  await addFault({ kind: 'api_latency', ms: 1, count: 1 });
  expect((await t.get('/api/v2/webhook_endpoints', DEFAULT_API_KEY)).status).toBe(500);
  expect(await applied()).toEqual([
    ['api_error', 1],
    ['api_latency', 1],
  ]);
});

describe('stacked API faults over random stacks and request sequences (property)', () => {
  const paths = ['/api/v2/entity_validations', '/api/v2/webhook_endpoints'] as const;
  const methods = ['GET', 'POST'] as const;
  const count = fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined });
  const where = { method: fc.option(fc.constantFrom(...methods), { nil: undefined }), path: fc.option(fc.constantFrom(...paths), { nil: undefined }) };
  const fault = fc.oneof(
    fc.record(
      { kind: fc.constant('api_error'), code: fc.constantFrom('rate_limited', 'internal_error', 'service_unavailable'), count, ...where },
      { requiredKeys: ['kind', 'code'] },
    ),
    fc.record({ kind: fc.constant('api_reset'), count, ...where }, { requiredKeys: ['kind'] }),
    fc.record({ kind: fc.constant('token_revoked'), count }, { requiredKeys: ['kind'] }),
    fc.record({ kind: fc.constant('api_latency'), ms: fc.integer({ min: 1, max: 50 }), count, ...where }, { requiredKeys: ['kind', 'ms'] }),
  );
  const request = fc.record({ method: fc.constantFrom(...methods), path: fc.constantFrom(...paths), accessToken: fc.boolean() });

  const countOf = (fault: FaultRequest): number | undefined => ('count' in fault ? fault.count : undefined);

  /** What the rule says: in the order added, the first answer fault that matches and has not used its count answers; latency adds up. */
  function expected(stack: FaultRequest[], requests: Array<{ method: string; path: string; accessToken: boolean }>) {
    const used = stack.map(() => 0);
    const answers = requests.map((request) => {
      let answer: string | null = null;
      let latencyMs = 0;
      stack.forEach((fault, index) => {
        const limit = countOf(fault);
        if (limit !== undefined && used[index]! >= limit) return;
        if (fault.kind === 'token_revoked') {
          if (!request.accessToken) return;
        } else if (fault.kind === 'api_error' || fault.kind === 'api_reset' || fault.kind === 'api_latency') {
          if (fault.method !== undefined && fault.method !== request.method) return;
          if (fault.path !== undefined && !request.path.startsWith(fault.path)) return;
        }
        if (fault.kind === 'api_latency') latencyMs += fault.ms;
        else if (answer !== null) return;
        else answer = fault.kind === 'api_error' ? fault.code : fault.kind;
        used[index]! += 1;
      });
      return { answer, latencyMs };
    });
    return { answers, used };
  }

  test('the first matching fault in the order added answers, each fires at most count times, applied counts what fired', () => {
    fc.assert(
      fc.property(fc.array(fault, { minLength: 1, maxLength: 6 }), fc.array(request, { maxLength: 25 }), (given, requests) => {
        const stack = given.map((body) => FaultRequest.parse(body));
        const plan = new FaultPlan(7);
        for (const body of stack) plan.add(body);
        const seen = requests.map((request) => {
          const decision = plan.forApi(request.method, request.path, { accessToken: request.accessToken, organizationId: null });
          const answer = decision.error ?? (decision.reset ? 'api_reset' : decision.revokeToken ? 'token_revoked' : null);
          return { answer, latencyMs: decision.latencyMs };
        });
        const rule = expected(stack, requests);
        expect(seen).toEqual(rule.answers);
        expect(plan.list().map((fault) => fault.applied)).toEqual(rule.used);
        plan.list().forEach((fault) => expect(fault.applied).toBeLessThanOrEqual(countOf(fault) ?? Infinity));
      }),
      { numRuns: 300 },
    );
  });
});
