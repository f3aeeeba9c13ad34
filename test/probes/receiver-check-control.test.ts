import { startBvsMock, type RunningBvsMock } from '../../src/testing';
import { ControlApiError } from '../../src/testing';
import { startSilentPort } from '../support/silent-port';
import { RECEIVER_SECRET, asyncReceiver, correct, observedReceiver, receiver, trustsAnyone } from '../support/graded-receivers';

// The receiver check through the control API and bvs-mock/testing: against an endpoint with its own
// Authorization, kept until a reset, and in the contract report (JSON and JUnit) with the rule it breaks.

let bvs: RunningBvsMock;
beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant' });
});
afterAll(() => bvs.stop());
beforeEach(() => bvs.control.reset());

test("POST /_mock/receiver-checks grades an endpoint's receiver with the endpoint's secret and its probe; a correct receiver passes every check", async () => {
  const target = await observedReceiver({ verifies: true, deduplicates: true, processes: true });
  try {
    const { webhook_endpoint: endpoint } = await bvs.control.createEndpoint({ name: 'graded', url: target.url, auth_type: 'secret', secret: RECEIVER_SECRET });
    const check = await bvs.control.checkReceiver(endpoint.id, { observe: target.observe });
    expect(check).toMatchObject({ id: expect.stringMatching(/^rck_\d+$/), endpoint_id: endpoint.id, organization_id: 'default' });
    expect(check.report).toMatchObject({ auth: 'secret', observe: target.observe, outcome: 'pass', failed: 0, skipped: 0, passed: 31 });
    expect((await bvs.control.report()).receiver_checks).toEqual([
      {
        id: check.id,
        endpoint_id: endpoint.id,
        url: target.url,
        outcome: 'pass',
        summary: '31 checks: 31 passed, 0 failed, 0 skipped',
        passed: 31,
        failed: 0,
        skipped: 0,
        failures: [],
      },
    ]);
  } finally {
    await target.close();
  }
});

test('a receiver that accepts forged deliveries is in the contract report, and its JUnit has a failing case per forged check naming §5.5', async () => {
  const target = await receiver(trustsAnyone);
  try {
    const { webhook_endpoint: endpoint } = await bvs.control.createEndpoint({
      name: 'trusting',
      url: target.url,
      auth_type: 'secret',
      secret: RECEIVER_SECRET,
    });
    await bvs.control.checkReceiver(endpoint.id);
    const report = await bvs.control.report();
    expect(report.receiver_checks[0]!.failures.map((failure) => failure.check)).toEqual([
      'refuse:missing-authorization',
      'refuse:wrong-bearer',
      'refuse:other-scheme',
    ]);
    const junit = await bvs.control.report('junit');
    expect(junit.match(/<failure message="[^"]*§5\.5/g)).toHaveLength(3);
    expect(await bvs.control.receiverChecks()).toHaveLength(1);
    await bvs.control.reset();
    expect(await bvs.control.receiverChecks()).toEqual([]);
  } finally {
    await target.close();
  }
});

test('without observe the processed checks are skipped and the contract report says incomplete; an endpoint with auth none is checked without authorization, and says so', async () => {
  const target = await receiver(correct);
  try {
    const { webhook_endpoint: endpoint } = await bvs.control.createEndpoint({ name: 'no auth', url: target.url, auth_type: 'none' });
    const { report } = await bvs.control.checkReceiver(endpoint.id);
    expect(report).toMatchObject({ auth: 'none', observe: null, outcome: 'fail' });
    expect(report.summary).toContain('Checked without authorization (auth none): right only for a receiver whose endpoint is configured with auth_type none');
    const { webhook_endpoint: secret } = await bvs.control.createEndpoint({ name: 'secret', url: target.url, auth_type: 'secret', secret: RECEIVER_SECRET });
    const check = await bvs.control.checkReceiver(secret.id);
    expect(check.report).toMatchObject({ outcome: 'incomplete', passed: 27, failed: 0, skipped: 4 });
    const junit = await bvs.control.report('junit');
    expect(junit).toContain(`${target.url} (${secret.id}, ${check.id}): 27 checks passed, 4 skipped`);
    expect(junit).toMatch(/<skipped message="31 checks: 27 passed, 0 failed, 4 skipped \(processed:duplicate-once, /);
    const refused = await bvs.control.checkReceiver(secret.id, { observe: 'http://169.254.169.254/processed' }).catch((error: unknown) => error);
    expect((refused as ControlApiError).status).toBe(422);
    expect((refused as ControlApiError).message).toContain(
      'observe: the receiver URL http://169.254.169.254/processed names a link-local or cloud metadata address',
    );
  } finally {
    await target.close();
  }
});

test('an OAuth endpoint is refused with what to do instead; an unknown endpoint is 404', async () => {
  const { webhook_endpoint: endpoint } = await bvs.control.createEndpoint({
    name: 'oauth',
    url: 'http://127.0.0.1:9/hooks',
    auth_type: 'oauth',
    enabled: false,
  });
  const refused = await bvs.control.checkReceiver(endpoint.id).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ControlApiError);
  expect((refused as ControlApiError).status).toBe(409);
  expect((refused as ControlApiError).message).toContain('bvs-mock check-receiver http://127.0.0.1:9/hooks --auth secret:');
  await expect(bvs.control.checkReceiver('whe_doesnotexist')).rejects.toMatchObject({ status: 404 });
});

test('a check still running when a reset comes is not kept', async () => {
  let firstProbe: () => void = () => undefined;
  const probed = new Promise<void>((resolve) => (firstProbe = resolve));
  const slow = await asyncReceiver(async () => {
    firstProbe();
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 200;
  });
  try {
    const { webhook_endpoint: endpoint } = await bvs.control.createEndpoint({ name: 'slow', url: slow.url });
    const running = bvs.control.checkReceiver(endpoint.id);
    await probed;
    await bvs.control.reset();
    expect((await running).report.results.length).toBeGreaterThan(0);
    expect(await bvs.control.receiverChecks()).toEqual([]);
    expect((await bvs.control.report()).receiver_checks).toEqual([]);
  } finally {
    await slow.close();
  }
});

// Regression: the control API's check probed any URL an endpoint named, credentials included, and its answers told a
// closed port from one that resets or never answers (docs/fidelity.md row 106).
test('an endpoint whose URL carries credentials is refused with 422, without repeating them, and nothing is sent', async () => {
  const port = await startSilentPort('hang');
  try {
    const url = port.url.replace('http://', 'http://tester:hunter2@');
    const { webhook_endpoint: endpoint } = await bvs.control.createEndpoint({ name: 'with credentials', url, enabled: false });
    const refused = await bvs.control.checkReceiver(endpoint.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ControlApiError);
    expect((refused as ControlApiError).status).toBe(422);
    expect((refused as ControlApiError).message).toContain(
      `Endpoint ${endpoint.id} cannot be checked: the receiver URL ${port.url} carries credentials (user:password@)`,
    );
    expect((refused as ControlApiError).message).toContain('auth_type to secret');
    expect((refused as ControlApiError).message).not.toContain('hunter2');
    expect(port.connections()).toBe(0);
  } finally {
    await port.close();
  }
});

test.each([
  'http://169.254.169.254/latest/meta-data',
  'http://0xa9fea9fe/',
  'http://0251.0376.0251.0376/',
  'http://[::ffff:169.254.169.254]/',
  'http://[fe80::1]/',
])('an endpoint at a link-local or metadata address (%s) is refused with 422 and the command to run instead', async (url) => {
  const { webhook_endpoint: endpoint } = await bvs.control.createEndpoint({ name: 'metadata', url, enabled: false });
  const refused = await bvs.control.checkReceiver(endpoint.id).catch((error: unknown) => error);
  expect((refused as ControlApiError).status).toBe(422);
  expect((refused as ControlApiError).message).toContain('names a link-local or cloud metadata address');
  expect((refused as ControlApiError).message).toContain('bvs-mock check-receiver http://');
});

test('through the control API, a closed port and a port that never answers read the same: unreachable, no duration, no excerpt', async () => {
  const quick = await startBvsMock({ clock: 'instant', deliveryTimeoutMs: 150 });
  const ports = [await startSilentPort('closed'), await startSilentPort('hang')];
  try {
    const seen: string[] = [];
    for (const port of ports) {
      const { webhook_endpoint: endpoint } = await quick.control.createEndpoint({ name: 'silent', url: port.url });
      const { report } = await quick.control.checkReceiver(endpoint.id);
      const answers = new Set(report.results.flatMap((result) => result.exchanges.map(({ answer }) => JSON.stringify(answer))));
      const reasons = new Set(report.results.map((result) => result.reason));
      seen.push(JSON.stringify({ answers: [...answers], reasons: [...reasons] }));
    }
    expect(seen[1]).toBe(seen[0]);
    expect(JSON.parse(seen[0]!).answers).toEqual([JSON.stringify({ status: null, duration_ms: null, error: 'unreachable', body_excerpt: '' })]);
  } finally {
    for (const port of ports) await port.close();
    await quick.stop();
  }
}, 30_000);
