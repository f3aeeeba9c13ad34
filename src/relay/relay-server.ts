import { timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebhookRelay, type WebhookRelayOptions } from './webhook-relay';

/** Options of {@link startRelayServer}. */
export interface RelayServerOptions extends WebhookRelayOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Certificate and key in PEM; null serves plain HTTP. */
  tls: { cert: string; key: string } | null;
  /** With it, `GET /_mock/relay` needs `Authorization: Bearer <token>` (the deliveries carry company data). */
  controlToken?: string;
}

/** A listening relay. */
export interface RunningRelay {
  /** `https://127.0.0.1:4020`: where the service's endpoint points. */
  url: string;
  relay: WebhookRelay;
  close(): Promise<void>;
}

/** A delivery body larger than this is refused with 413: the service's payloads are a few hundred KB at most (a 50-partner tree). */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** The path of the relay's report; every other path under it is 404, and every POST elsewhere is a delivery. */
export const RELAY_REPORT_PATH = '/_mock/relay';

function send(response: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function authorized(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Starts the relay of `bvs-mock listen`: every POST whose path is not under `/_mock/` is a delivery (the path is kept in
 * its record; the receiver gets it at `--forward-to` as given), `GET /_mock/relay` answers the deliveries and findings.
 */
export async function startRelayServer(options: RelayServerOptions): Promise<RunningRelay> {
  const relay = new WebhookRelay(options);
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0]!;
    if (path.startsWith('/_mock/')) {
      if (path !== RELAY_REPORT_PATH) return send(response, 404, `bvs-mock listen: no ${path}; the relay answers GET ${RELAY_REPORT_PATH}`);
      if (request.method !== 'GET') return send(response, 405, `bvs-mock listen: ${RELAY_REPORT_PATH} answers GET only`);
      if (!authorized(request.headers.authorization, options.controlToken))
        return send(response, 401, `bvs-mock listen: ${RELAY_REPORT_PATH} needs Authorization: Bearer <the --control-token>`);
      return send(response, 200, JSON.stringify(relay.report()), 'application/json');
    }
    if (request.method !== 'POST') return send(response, 405, 'bvs-mock listen: webhook deliveries are POST requests');
    const body = await readBody(request);
    if (body === null) return send(response, 413, `bvs-mock listen: a delivery of more than ${MAX_BODY_BYTES} bytes is refused`);
    const headers = Object.fromEntries(
      Object.entries(request.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]])),
    );
    const answer = await relay.relay({ path, headers, body });
    send(response, answer.status, answer.body);
  };
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, `bvs-mock listen: ${(error as Error).message}`);
      else response.destroy();
    });
  };
  const server: Server = options.tls === null ? createHttpServer(listener) : createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `${options.tls === null ? 'http' : 'https'}://${host}:${port}`,
    relay,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
