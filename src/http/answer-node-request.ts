import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiCore } from '../api/api-core';
import { problems } from '../api/api-problem';
import type { CoreRequest, CoreResponse, ResponseStream } from '../api/core-types';
import type { NodeServerOptions } from './node-server';
import { refused } from './raw-answers';

/**
 * Larger bodies are written a slice at a time, each once the socket drained the one before: a client that
 * does not read then holds the answer once, not also its encrypted copy in TLS's and node's buffers.
 */
const WRITE_SLICE_BYTES = 64 * 1024;

const BASE = 'http://bvs-mock.local';
const EMPTY = Buffer.alloc(0);

/** The path and query of a request target (RFC 9112 §3.2), or null when it is none ("http://[::1", a port above 65535). */
function parseTarget(target: string): { pathname: string; searchParams: URLSearchParams } | null {
  // Most targets are plain paths that URL would leave as they are: skip parsing them (bench:api).
  if (PLAIN_PATH.test(target)) return { pathname: target, searchParams: new URLSearchParams() };
  try {
    // The origin form is a path even when it starts with "//", which URL alone reads as a host.
    if (target.startsWith('/')) return new URL(`${BASE}${target}`);
    // The absolute form, or anything else resolved as a path ("*").
    return new URL(target, BASE);
  } catch {
    return null;
  }
}

/** A path with nothing for URL to normalize: no dot segments, escapes, query or fragment. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)+\/?$/;

/** Per connection, a promise of the answer being written out (or the connection gone); no entry when none is. */
export type Turns = WeakMap<Duplex, Promise<void>>;

/** How one of the HTTP servers answers its requests. */
interface AnswerMode {
  /** Whether the request arrived over TLS. */
  secure: boolean;
  /** Close the connection after the answer (plain HTTP on the TLS port). */
  closeAfter: boolean;
  /** The server's answers being written, by connection; absent in someone else's server (the express middleware). */
  turns?: Turns;
}

export function answerWith(options: NodeServerOptions, mode: AnswerMode) {
  return (request: IncomingMessage, response: ServerResponse) => {
    void handle(options, { request, response, ...mode });
  };
}

/**
 * Answers one request that reached bvs-mock through someone else's node server (an express app: bvsMockMiddleware)
 * as bvs-mock's own server answers it. `secure`: whether it came over HTTPS (default: its socket is TLS); `body`:
 * the body, when a parser before bvs-mock already read it off the request.
 */
export function answerNodeRequest(
  core: ApiCore,
  request: IncomingMessage,
  response: ServerResponse,
  { secure = (request.socket as { encrypted?: boolean }).encrypted === true, body }: { secure?: boolean; body?: Buffer } = {},
): Promise<void> {
  return handle({ core }, { request, response, secure, closeAfter: false, body });
}

async function handle(
  options: Pick<NodeServerOptions, 'core' | 'logError'>,
  { request, response, secure, closeAfter, turns, body: given }: AnswerMode & { request: IncomingMessage; response: ServerResponse; body?: Buffer },
): Promise<void> {
  let phase: 'reading' | 'answering' | 'writing' = 'reading';
  // The idle timeout is for a silent client, not for the server's own time: an api_latency fault may hold an answer for minutes.
  // It is also for a client that does not read: an answer its socket does not drain for that long is destroyed.
  response.on('timeout', () => {
    if (phase !== 'answering') response.destroy();
  });
  const connection = request.socket;
  // Pipelined requests are answered one at a time, each once the answer before it is written out: a client that
  // sends many and reads none holds one answer, not one per request (docs/fidelity.md row 102).
  const before = turns?.get(connection);
  if (turns !== undefined) {
    // Watched from its turn on, so a hundred requests waiting add no hundred listeners to the connection; the
    // first (most requests: nothing pipelined behind another) is watched at once, without a chain of promises.
    const mine: Promise<void> =
      before === undefined ? writtenOut(response, connection) : before.then(() => (connection.destroyed ? undefined : writtenOut(response, connection)));
    turns.set(connection, mine);
    void mine.then(() => {
      if (turns.get(connection) === mine) turns.delete(connection);
    });
  }
  try {
    const body = given ?? (await readBody(request, options.core.bodyLimitFor(request.method ?? 'GET', parseTarget(request.url ?? '/')?.pathname ?? '/')));
    if (before !== undefined) {
      await before;
      // The connection went (a client that did not read, let go): its pipelined requests need no answer.
      if (connection.destroyed) return;
    }
    const url = parseTarget(request.url ?? '/');
    let answer: CoreResponse;
    if (request.httpVersion === '1.1' && request.headers.host === undefined) {
      answer = refused(problems.invalidRequest('An HTTP/1.1 request needs a Host header (RFC 9112 §3.2). Send `Host: <host>:<port>` of this server.'));
    } else if (url === null) {
      answer = refused(
        problems.invalidRequest(
          `The request target ${JSON.stringify((request.url ?? '').slice(0, 200))} is not a path or URL. Send a path such as /api/v2/entity_validations.`,
        ),
      );
    } else {
      const headers: CoreRequest['headers'] = {};
      for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      phase = 'answering';
      answer = await options.core.handle({ method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, headers, body, secure });
    }
    phase = 'writing';
    if (answer.resetConnection) {
      request.socket.destroy();
      return;
    }
    if (closeAfter) answer.headers.connection = 'close';
    if (answer.stream !== undefined && request.method !== 'HEAD') {
      openStream(request, response, answer, answer.stream);
      return;
    }
    if (request.method !== 'HEAD' && answer.body.length > WRITE_SLICE_BYTES) {
      const bytes = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
      answer.headers['content-length'] = String(bytes.byteLength);
      response.writeHead(answer.status, answer.headers);
      writeSlices(response, bytes);
      return;
    }
    // The length up front: one write of head and body, no chunked encoding (bench:api).
    if (request.method !== 'HEAD')
      answer.headers['content-length'] = String(typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.byteLength);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  } catch (error) {
    if (phase === 'reading') {
      // The connection broke while the request arrived: nobody is left to read an answer.
      if (!response.headersSent) response.writeHead(400, { 'content-type': 'text/plain', connection: 'close' });
      response.end();
      request.destroy(error as Error);
      return;
    }
    // A bug past the core's own catch (or an answer node refuses to write): one generic 500, logged, never a crashed process (CONTRIBUTING.md rule 5).
    const answer = refused(problems.internal());
    const requestId = answer.headers['x-request-id']!;
    if (options.logError) options.logError(requestId, error);
    else process.stderr.write(`bvs-mock: ${requestId}: unexpected error in the node server: ${(error as Error)?.stack ?? String(error)}\n`);
    if (response.headersSent) response.destroy();
    else {
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    }
  }
}

/** Resolves once `response` is written out to the kernel, or its connection is gone. */
function writtenOut(response: ServerResponse, connection: Duplex): Promise<void> {
  return new Promise((resolve) => {
    // 'close' on the response comes once it is written out (after 'finish') or its connection went.
    const done = () => {
      connection.off('close', done);
      resolve();
    };
    response.once('close', done);
    connection.once('close', done);
  });
}

/** Writes `bytes` {@link WRITE_SLICE_BYTES} at a time, the next once the socket drained; nothing more once the response is destroyed. */
function writeSlices(response: ServerResponse, bytes: Uint8Array): void {
  let offset = 0;
  const next = () => {
    while (!response.destroyed) {
      const end = Math.min(offset + WRITE_SLICE_BYTES, bytes.byteLength);
      const slice = bytes.subarray(offset, end);
      offset = end;
      if (offset === bytes.byteLength) {
        response.end(slice);
        return;
      }
      if (!response.write(slice)) {
        response.once('drain', next);
        return;
      }
    }
  };
  next();
}

/**
 * A streamed answer (`GET /_mock/stream`): no length and no idle timeout (the stream's heartbeats show
 * the connection is alive), and the stream let go when the connection ends for any reason, the
 * client's tab closing and the server's stop (which destroys every socket) alike.
 */
function openStream(request: IncomingMessage, response: ServerResponse, answer: CoreResponse, stream: ResponseStream): void {
  request.socket.setTimeout(0);
  response.writeHead(answer.status, answer.headers);
  if (answer.body.length > 0) response.write(answer.body);
  let open = true;
  const close = stream.open(
    (chunk) => open && response.write(chunk),
    () => response.end(),
  );
  response.once('close', () => {
    open = false;
    close();
  });
}

/** Reads the body, keeping at most `limit + 1` bytes so an oversized body costs no memory but is still refused. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> | Buffer {
  // A request without a body (most GETs) has nothing to wait for.
  if (request.complete && request.readableLength === 0) return EMPTY;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      size += chunk.length;
      chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      resolve(body.length > limit ? body.subarray(0, limit + 1) : body);
    });
    request.on('error', reject);
  });
}
