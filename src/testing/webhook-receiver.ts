import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { realDelay } from '../wall';

/** One request the receiver got. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  body: unknown;
  raw: string;
}

/** How the receiver answers one request: a status (and body), after an optional real delay, or by dropping the connection. */
export type ReceiverAnswer = number | { status: number; body?: string; delayMs?: number } | 'drop';

/** Decides the answer to the request number `index` (0-based). */
export type Responder = (webhook: ReceivedWebhook, index: number) => ReceiverAnswer;

/** Options of {@link startWebhookReceiver}. */
export interface ReceiverOptions {
  /** Serve HTTPS with this certificate and key instead of plain HTTP. */
  tls?: { cert: string; key: string };
  /** Default: answer 200. */
  respond?: Responder;
  /** Path the receiver is reached at (only for building `url`); default `/hooks`. */
  path?: string;
  /**
   * Address to listen on; default `127.0.0.1`. `0.0.0.0` (or `::`) lets a bvs-mock in a container reach
   * it, through the host's gateway address (`host.containers.internal`, `host.docker.internal`).
   */
  host?: string;
  /** Port to listen on; default any free one. */
  port?: number;
  /**
   * Host name put in `url`, the one bvs-mock must use to reach the receiver (`host.docker.internal` for a
   * bvs-mock in a container); default `host`, or `127.0.0.1` when `host` listens on every address.
   */
  publicHost?: string;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** Where to point bvs-mock: `http://127.0.0.1:PORT/hooks`. */
  url: string;
  /** Every request received, in arrival order. */
  received: ReceivedWebhook[];
  /** Changes how the next requests are answered. */
  respond(responder: Responder): void;
  /** Resolves once `count` requests arrived (or rejects after `timeoutMs` real ms, saying how many did). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on loopback for tests: records every delivery and answers
 * as told (fail N times, time out, drop the connection), so a client team can
 * see bvs-mock's retries and a test can assert what arrived.
 *
 * @example
 * const receiver = await startWebhookReceiver({ respond: (_hook, index) => (index < 2 ? 500 : 200) });
 * // For a bvs-mock in a container: { host: '0.0.0.0', port: 8085, publicHost: 'host.docker.internal' }
 * const bvs = await startBvsMock();
 * await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url });
 * // ... create a validation, then await bvs.control.waitForSettled(id)
 * receiver.received.map((hook) => (hook.body as { type: string }).type);
 * await receiver.close();
 */
export async function startWebhookReceiver(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let responder: Responder = options.respond ?? (() => 200);
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const sockets = new Set<Socket>();

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          // Not JSON: kept as text, which a test may well want to see.
        }
        const webhook: ReceivedWebhook = {
          method: request.method ?? '',
          path: request.url ?? '',
          headers: { ...request.headers } as Record<string, string | undefined>,
          body,
          raw,
        };
        const index = received.length;
        received.push(webhook);
        for (const waiter of waiters.filter((candidate) => received.length >= candidate.count)) waiter.resolve();
        const answer = responder(webhook, index);
        if (answer === 'drop') {
          request.socket.destroy();
          return;
        }
        const { status, body: text, delayMs } = typeof answer === 'number' ? { status: answer, body: undefined, delayMs: undefined } : answer;
        if (delayMs !== undefined) await realDelay(delayMs);
        if (response.destroyed) return;
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end(text ?? (status < 300 ? 'ok' : 'error'));
      })();
    });
  };

  const server: Server = options.tls ? createHttpsServer(options.tls, onRequest) : createHttpServer(onRequest);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(`webhook receiver: cannot listen on ${host}:${options.port ?? 0} (${error.code ?? error.message}); choose another host or port`, {
          cause: error,
        }),
      ),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const everyAddress = host === '0.0.0.0' || host === '::';
  const publicHost = options.publicHost ?? (everyAddress ? '127.0.0.1' : host);
  const urlHost = publicHost.includes(':') ? `[${publicHost}]` : publicHost;

  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${port}${options.path ?? '/hooks'}`,
    received,
    respond(next) {
      responder = next;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const waiter = { count, resolve: () => resolve(received.slice()) };
        waiters.push(waiter);
        void realDelay(timeoutMs).then(() => reject(new Error(`webhook receiver: ${received.length} of ${count} requests arrived within ${timeoutMs} ms`)));
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
