import { startBvsMock, type RunningBvsMock } from '../../src/testing';
import { ControlApiError } from '../../src/testing';
import { RECEIVER_SECRET, asyncReceiver, correct, receiver, trustsAnyone } from '../support/graded-receivers';

// The receiver check through the control API and bvs-mock/testing: against an endpoint with its own
// Authorization, kept until a reset, and in the contract report (JSON and JUnit) with the rule it breaks.

let bvs: RunningBvsMock;
beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant' });
});
afterAll(() => bvs.stop());
beforeEach(() => bvs.control.reset());

test("POST /_mock/receiver-checks grades an endpoint's receiver with the endpoint's secret; a correct receiver passes every check", async () => {
  const target = await receiver(correct);
  try {
    const { webhook_endpoint: endpoint } = await bvs.control.createEndpoint({ name: 'graded', url: target.url, auth_type: 'secret', secret: RECEIVER_SECRET });
    const check = await bvs.control.checkReceiver(endpoint.id);
    expect(check).toMatchObject({ id: expect.stringMatching(/^rck_\d+$/), endpoint_id: endpoint.id, organization_id: 'default' });
    expect(check.report).toMatchObject({ auth: 'secret', failed: 0, skipped: 0 });
    expect((await bvs.control.report()).receiver_checks).toEqual([
      { id: check.id, endpoint_id: endpoint.id, url: target.url, passed: check.report.passed, failed: 0, skipped: 0, failures: [] },
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
      'verify:missing-authorization',
      'verify:wrong-bearer',
      'verify:other-scheme',
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
