import { startServer, type StartedServer } from '../../src/http';
import { startRelayServer, type RelayServerOptions, type RunningRelay } from '../../src/http/start-relay';
import { RelayReport, parseWith } from '../../src/schemas';
import { connectBvsMock, startWebhookReceiver, type BvsMockControl, type WebhookReceiver } from '../../src/testing';
import { HAPPY_PARTNERS } from './built-in-tins';

/** The default organization's API key (src/schemas/config.ts). */
const API_KEY = 'test_key_default';

/**
 * A relay on 127.0.0.1 (plain HTTP, `--auth none`, any free port unless `options` say otherwise) in front of a
 * receiver that answers 200; `close` stops both.
 */
export async function startPlainRelay(
  options: Partial<RelayServerOptions> = {},
): Promise<{ relay: RunningRelay; receiver: WebhookReceiver; close(): Promise<void> }> {
  const receiver = await startWebhookReceiver({});
  const relay = await startRelayServer({
    host: '127.0.0.1',
    port: 0,
    tls: null,
    forwardTo: receiver.url,
    auth: { kind: 'none' },
    timeoutMs: 5_000,
    insecureTls: false,
    strict: false,
    ...options,
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

/** An upstream bvs-mock on 127.0.0.1 (plain HTTP, manual clock) whose webhook endpoint points at `webhookUrl`, with its control API. */
export async function startUpstream(webhookUrl: string): Promise<{ server: StartedServer; control: BvsMockControl }> {
  const server = await startServer({ port: 0, http: true, clock: 'manual', seed: 7, webhookUrl });
  return { server, control: connectBvsMock(server.url) };
}

/** Calls the upstream's API as a client does, with the default organization's API key; answers the status and the JSON body. */
export async function callApi(server: StartedServer, path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> {
  const answer = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json() };
}

/** Creates a happy-partners validation through the upstream's API; answers its id and the id of its main batch. */
export async function createHappyPartners(server: StartedServer): Promise<{ id: string; batch: string }> {
  const created = await callApi(server, '/api/v2/entity_validations', 'POST', { tin: HAPPY_PARTNERS, country: 'CL' });
  expect(created.status).toBe(201);
  const read = await callApi(server, `/api/v2/entity_validations/${created.body.id}`);
  return { id: created.body.id, batch: read.body.data_source_run_batches[0].id };
}
