import { startRelayServer, type RunningRelay } from '../../src/relay/relay-server';
import { RelayReport, parseWith } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';

/** A relay on 127.0.0.1 (`--auth none`) in front of a receiver that answers 200; `port` 0 picks one. */
export async function startPlainRelay(port = 0): Promise<{ relay: RunningRelay; receiver: WebhookReceiver; close(): Promise<void> }> {
  const receiver = await startWebhookReceiver({});
  const relay = await startRelayServer({
    host: '127.0.0.1',
    port,
    tls: null,
    forwardTo: receiver.url,
    auth: { kind: 'none' },
    timeoutMs: 5_000,
    insecureTls: false,
    strict: false,
  });
  return {
    relay,
    receiver,
    close: async () => {
      await relay.close();
      await receiver.close();
    },
  };
}

/** What `GET /_mock/relay` answers, checked against its schema. */
export async function relayReport(relay: RunningRelay): Promise<RelayReport> {
  const answer = await fetch(`${relay.url}/_mock/relay`);
  expect(answer.status).toBe(200);
  const parsed = parseWith(RelayReport, await answer.json());
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}
