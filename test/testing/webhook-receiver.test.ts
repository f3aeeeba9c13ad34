import { SCENARIOS, startBvsMock, startWebhookReceiver } from '../../src/testing';
import { freePort } from '../support/free-port';

// The webhook recorder of bvs-mock/testing, bound where a bvs-mock in a container can reach it: every address,
// a chosen port, and the host name that bvs-mock must use in the endpoint's URL.

test('bound to every address on a chosen port, with the public host name in its URL, it records the deliveries sent there', async () => {
  const port = await freePort();
  const receiver = await startWebhookReceiver({ host: '0.0.0.0', port, publicHost: 'localhost' });
  const bvs = await startBvsMock({ clock: 'instant' });
  try {
    expect(receiver.url).toBe(`http://localhost:${port}/hooks`);
    await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url });
    const created = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' }),
    });
    await bvs.control.waitForSettled(((await created.json()) as { id: string }).id);
    const types = receiver.received.map((webhook) => (webhook.body as { type: string }).type);
    expect(types).toContain('data_source_run_batch.consolidated_report_ready');
  } finally {
    await bvs.stop();
    await receiver.close();
  }
});

test('listening on every address without a public host, its URL names 127.0.0.1', async () => {
  const receiver = await startWebhookReceiver({ host: '0.0.0.0' });
  try {
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
  } finally {
    await receiver.close();
  }
});

test('a port in use is refused with the address and what to do', async () => {
  const first = await startWebhookReceiver();
  const port = Number(new URL(first.url).port);
  try {
    await expect(startWebhookReceiver({ port })).rejects.toThrow(
      `webhook receiver: cannot listen on 127.0.0.1:${port} (EADDRINUSE); choose another host or port`,
    );
  } finally {
    await first.close();
  }
});
