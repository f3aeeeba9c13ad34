import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// Webhook receivers written to be graded by the receiver check: a correct one, one that accepts any
// Authorization, one that throws on a severity it does not know (test/probes, test/cli).

/** The secret their endpoints are configured with. */
export const RECEIVER_SECRET = 'whsec_receiver_check';
const SECRET = RECEIVER_SECRET;

export type Handle = (body: Record<string, any>, request: IncomingMessage) => number;

export async function receiver(handle: Handle): Promise<{ url: string; seen: IncomingMessage[]; close(): Promise<void> }> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push(request);
      let status: number;
      try {
        status = handle(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>, request);
      } catch {
        status = 500;
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A receiver whose answer may wait (real time). */
export async function asyncReceiver(handle: (body: Record<string, any>) => Promise<number>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void handle(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>).then((status) => response.writeHead(status).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const digest = (text: string) => createHash('sha256').update(text).digest();
const verified = (request: IncomingMessage) => timingSafeEqual(digest(request.headers.authorization ?? ''), digest(`Bearer ${SECRET}`));

/** Verifies the header, answers at once, accepts whatever it does not know. */
export const correct: Handle = (_body, request) => (verified(request) ? 200 : 401);
/** Never looks at Authorization. */
export const trustsAnyone: Handle = () => 200;
/** Verifies, then maps severities through a table that knows only medium and high. */
export const strictSeverities: Handle = (body, request) => {
  if (!verified(request)) return 401;
  const weights: Record<string, number> = { medium: 1, high: 2 };
  const batch = body.data_source_run_batch as { raised_alerts?: Array<{ severity: string }> } | undefined;
  for (const alert of batch?.raised_alerts ?? []) {
    if (weights[alert.severity] === undefined) throw new Error(`unknown severity ${alert.severity}`);
  }
  return 200;
};

/** How a receiver with a side-effect probe behaves: whether it verifies Authorization, deduplicates, and processes at all. */
export interface Behaviour {
  verifies: boolean;
  deduplicates: boolean;
  processes: boolean;
}

/**
 * A receiver with a side-effect probe at `observe` (GET, a ProcessedState): it answers 200 at once and processes
 * after its answer, as the spec asks, by its `behaviour`.
 */
export async function observedReceiver(behaviour: Behaviour): Promise<{ url: string; observe: string; close(): Promise<void> }> {
  const processed: Array<{ type: string; id: string | null }> = [];
  const keys = new Set<string>();
  let pending = 0;
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/processed') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ processed, pending }));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (behaviour.verifies && !verified(request)) return void response.writeHead(401).end();
      const text = Buffer.concat(chunks).toString('utf8');
      response.writeHead(200).end('ok');
      if (!behaviour.processes || (behaviour.deduplicates && keys.has(text))) return;
      keys.add(text);
      pending += 1;
      setImmediate(() => {
        const body = JSON.parse(text) as Record<string, { id?: string }> & { type: string };
        const resource = Object.entries(body).find(([key]) => key !== 'type')![1] as { id?: string };
        processed.push({ type: body.type, id: resource.id ?? null });
        pending -= 1;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/hooks`, observe: `${origin}/processed`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
