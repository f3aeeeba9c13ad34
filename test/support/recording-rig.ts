import { startServer, type ServerOptions, type StartedServer } from '../../src/http';
import { selfSignedCertificate } from '../../src/http/self-signed-certificate';
import { startProxy } from '../../src/http/start-proxy';
import { Recorder } from '../../src/proxy/recorder';
import { startRelayServer } from '../../src/http/start-relay';
import type { RelayAuth } from '../../src/relay/webhook-relay';
import type { EmittedEvent, Recording } from '../../src/schemas';
import { connectBvsMock, startWebhookReceiver } from '../../src/testing';
import { httpClient, type HttpAnswer, type HttpCall } from './https-client';

/** The default organization's credentials (src/schemas/config.ts). */
export const CREDENTIALS = {
  apiKey: 'test_key_default',
  client: { id: 'default_client', secret: 'default_secret' },
  legacyToken: 'tok_legacy_default',
  endpointSecret: 'whsec_recording_0123456789abcdef',
} as const;

/** How the client authenticates its API calls: an API key, or an OAuth token asked for with a form's secret or with Basic. */
export type ClientAuth = 'api-key' | 'oauth-form' | 'oauth-basic';
/** How the upstream authorizes its deliveries: a webhook endpoint's secret, or the legacy model's organization token. */
export type WebhookAuth = 'endpoint-secret' | 'legacy-token';

export interface RecordedPlay {
  proxy: Recording;
  listen: Recording;
  /** The upstream's emitted events for the tree, in order (what the recording is to reproduce). */
  emitted: EmittedEvent[];
  /** The create's `created_at`: t = 0 of the play. */
  createdAt: string;
  /** Every credential and token the play used: none may be in a recording. */
  secrets: string[];
}

const json = (answer: HttpAnswer) => JSON.parse(answer.body.toString('utf8')) as Record<string, any>;

/**
 * Plays one tree on an upstream bvs-mock (instant clock), its client going through `bvs-mock proxy` and its deliveries
 * through `bvs-mock listen` to a local receiver, both recording; everything on 127.0.0.1, everything stopped after.
 */
export async function recordPlay(options: {
  tin: string;
  country: string;
  clientAuth?: ClientAuth;
  webhookAuth?: WebhookAuth;
  redact?: string[];
  upstream?: ServerOptions;
  /** Called with the upstream before the play (to load scenarios into it). */
  prepare?: (upstream: StartedServer) => void;
  /** Revalidate the tree once its play has ended, this many simulated ms later, and record that play too. */
  revalidateAfterMs?: number;
}): Promise<RecordedPlay> {
  const clientAuth = options.clientAuth ?? 'api-key';
  const webhookAuth = options.webhookAuth ?? 'endpoint-secret';
  const receiver = await startWebhookReceiver({});
  const listenRecorder = new Recorder({ source: 'listen', peer: receiver.url, redact: options.redact });
  const relayAuth: RelayAuth =
    webhookAuth === 'legacy-token' ? { kind: 'legacy', value: CREDENTIALS.legacyToken } : { kind: 'secret', value: CREDENTIALS.endpointSecret };
  const relay = await startRelayServer({
    host: '127.0.0.1',
    port: 0,
    // The legacy model's webhook_url must be https (spec §5.6): the relay serves TLS then, and the upstream accepts its certificate.
    tls: webhookAuth === 'legacy-token' ? await selfSignedCertificate(['127.0.0.1']) : null,
    forwardTo: receiver.url,
    auth: relayAuth,
    timeoutMs: 5_000,
    insecureTls: false,
    strict: false,
    onDelivery: (delivery) => listenRecorder.addDelivery(delivery),
  });
  const hooks = `${relay.url}/hooks`;
  const upstream = await startServer({
    port: 0,
    clock: 'instant',
    seed: 7,
    insecureWebhookTls: true,
    ...(webhookAuth === 'endpoint-secret' ? { webhookUrl: hooks, webhookSecret: CREDENTIALS.endpointSecret } : {}),
    ...options.upstream,
  });
  try {
    options.prepare?.(upstream);
  } catch (error) {
    // A scenario the upstream refuses: everything started so far stops before the error is told.
    await upstream.close();
    await relay.close();
    await receiver.close();
    throw error;
  }
  const proxyRecorder = new Recorder({ source: 'proxy', peer: upstream.url, redact: options.redact });
  const proxy = await startProxy({
    upstream: new URL(upstream.url),
    upstreamCa: upstream.certificate!,
    port: 0,
    onExchange: (exchange) => proxyRecorder.addExchange(exchange),
  });
  const client = httpClient({ baseUrl: proxy.url, ca: proxy.certificate });
  const control = connectBvsMock(upstream.url, { ca: upstream.certificate! });
  const secrets: string[] = [CREDENTIALS.apiKey, CREDENTIALS.client.secret, CREDENTIALS.legacyToken, CREDENTIALS.endpointSecret];
  try {
    let authorization = `Bearer ${CREDENTIALS.apiKey}`;
    if (clientAuth !== 'api-key') {
      const basic = Buffer.from(`${CREDENTIALS.client.id}:${CREDENTIALS.client.secret}`).toString('base64');
      secrets.push(basic);
      const call: HttpCall =
        clientAuth === 'oauth-basic'
          ? {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
              body: 'grant_type=client_credentials',
            }
          : {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: `grant_type=client_credentials&client_id=${CREDENTIALS.client.id}&client_secret=${CREDENTIALS.client.secret}`,
            };
      const token = json(await client.request('/oauth/token', call));
      if (typeof token.access_token !== 'string') throw new Error(`no token: ${JSON.stringify(token)}`);
      secrets.push(token.access_token);
      authorization = `Bearer ${token.access_token}`;
    }
    const headers = { authorization };
    const body = { tin: options.tin, country: options.country, ...(webhookAuth === 'legacy-token' ? { webhook_url: hooks } : {}) };
    const createdAnswer = await client.request('/api/v2/entity_validations', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const created = json(createdAnswer);
    if (createdAnswer.status !== 201) throw new Error(`create answered ${createdAnswer.status}: ${JSON.stringify(created)}`);
    // A run waiting for input gets it once nothing else moves (so at the same simulated instant in every play), as a
    // client would have it supplied: it reads the validation, sees the wait, and supplies the input.
    for (;;) {
      await control.waitForSettled(created.id, { timeoutMs: 25_000 });
      const tree = await control.validationTree(created.id);
      const waiting = JSON.stringify(tree).match(/"id":"(dsr_[0-9A-Za-z]+)"[^{}]*"status":"missing_input_data"/)?.[1];
      if (waiting === undefined) break;
      await client.request(`/api/v2/entity_validations/${created.id}`, { headers });
      await control.supplyInput(waiting);
    }
    if (options.revalidateAfterMs !== undefined) {
      await control.advance(options.revalidateAfterMs / 1000);
      await control.revalidate(created.id);
      await control.waitForSettled(created.id, { timeoutMs: 25_000 });
    }
    const validation = json(await client.request(`/api/v2/entity_validations/${created.id}`, { headers }));
    for (const batch of validation.data_source_run_batches as Array<{ id: string }>)
      await client.request(`/api/v2/data_source_run_batches/${batch.id}`, { headers });
    return {
      proxy: proxyRecorder.recording(),
      listen: listenRecorder.recording(),
      emitted: await control.eventsFor(created.id),
      secrets,
      createdAt: created.created_at,
    };
  } finally {
    client.close();
    await proxy.close();
    await upstream.close();
    await relay.close();
    await receiver.close();
  }
}
