import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ValidationTracker, type BvsEvent } from './validation-tracker';

/** Where accepted events are kept until processed: a database table or a queue in production. */
export interface Inbox {
  /** Stores the event under its key; false when that key is already stored (a duplicate). Throws when storing fails. */
  add(key: string, event: BvsEvent): Promise<boolean>;
}

/** An inbox in memory. */
export class MemoryInbox implements Inbox {
  private readonly keys = new Set<string>();
  async add(key: string, _event: BvsEvent): Promise<boolean> {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }
}

/** Options of {@link startReceiver}. */
export interface ReceiverOptions {
  /** The endpoint's secret: deliveries carry `Authorization: Bearer <secret>` (spec §5.5). */
  secret: string;
  inbox?: Inbox;
  tracker?: ValidationTracker;
  host?: string;
  port?: number;
  /**
   * Test builds only: serve the side-effect probe bvs-mock's receiver check reads (`check-receiver --observe URL`),
   * a read-only `GET /bvs-test/processed` answering every event processed, `{ processed: [{ type, id }], pending }`.
   */
  observe?: boolean;
}

/** A running receiver. */
export interface Receiver {
  url: string;
  tracker: ValidationTracker;
  /** The side-effect probe's URL, when started with `observe`. */
  observeUrl: string | undefined;
  /** Deliveries refused for their Authorization header, and duplicates acknowledged without processing. */
  counts: { accepted: number; refused: number; duplicates: number; storeFailures: number };
  /** Resolves once every accepted event has been processed. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * The receiver rules of spec §6 (Subscription and delivery, item 4): verify the Authorization header,
 * answer 200 quickly and process asynchronously, make handling idempotent. An event is acknowledged once it
 * is safely in the inbox; when storing fails it answers 503, so the service retries it later.
 *
 * Idempotency key: the body's SHA-256. Retries and redeliveries of one event carry the same body, and no two
 * events do (each names its resource and its state), so a duplicate is recognised without trusting any field.
 */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const inbox = options.inbox ?? new MemoryInbox();
  const tracker = options.tracker ?? new ValidationTracker();
  const counts = { accepted: 0, refused: 0, duplicates: 0, storeFailures: 0 };
  const expected = digest(`Bearer ${options.secret}`);
  let processing: Promise<void> = Promise.resolve();
  /** Each event processed, by its type and its resource's id; and how many acknowledged ones wait to be. */
  const processed: Array<{ type: string; id: string | null }> = [];
  let pending = 0;

  const answer = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(text);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (options.observe === true && request.method === 'GET' && request.url === PROBE_PATH) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ processed, pending }));
    }
    if (request.method !== 'POST') return answer(response, 405, 'POST only');
    if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      counts.refused += 1;
      return answer(response, 401, 'unauthorized');
    }
    const body = await readBody(request);
    if (body === undefined) return answer(response, 413, 'too large');
    let event: BvsEvent;
    try {
      event = JSON.parse(body.toString('utf8')) as BvsEvent;
    } catch {
      return answer(response, 400, 'not JSON');
    }
    if (typeof event?.type !== 'string') return answer(response, 400, 'no event type');
    let added: boolean;
    try {
      added = await inbox.add(createHash('sha256').update(body).digest('hex'), event);
    } catch {
      counts.storeFailures += 1;
      return answer(response, 503, 'try again later');
    }
    if (!added) {
      counts.duplicates += 1;
      return answer(response, 200, 'duplicate');
    }
    counts.accepted += 1;
    answer(response, 200, 'ok');
    // Processed after the answer: a slow step never makes the service wait.
    pending += 1;
    processing = processing
      .then(() => {
        tracker.apply(event);
        processed.push({ type: event.type, id: resourceId(event) });
      })
      .catch(() => undefined)
      .finally(() => (pending -= 1));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) answer(response, 500, 'error');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: `${origin}/bvs-webhooks`,
    observeUrl: options.observe === true ? `${origin}${PROBE_PATH}` : undefined,
    tracker,
    counts,
    idle: () => processing,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The side-effect probe's path (test builds only). */
const PROBE_PATH = '/bvs-test/processed';

/** The id of the event's one resource (the key beside `type`), or null when it has none. */
function resourceId(event: BvsEvent): string | null {
  const resource = Object.entries(event).find(([key]) => key !== 'type')?.[1] as { id?: unknown } | undefined;
  return typeof resource?.id === 'string' ? resource.id : null;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
