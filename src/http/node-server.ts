import { randomInt } from 'node:crypto';
import { STATUS_CODES, createServer as createHttpServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ApiCore } from '../api/api-core';
import { problems, type ApiProblem } from '../api/api-problem';
import type { CoreRequest, CoreResponse, ResponseStream } from '../api/core-types';

/**
 * How long each stage of a connection may take before the server closes it, in real
 * milliseconds, so that silent, slow or half-open clients cannot hold sockets (and file
 * descriptors) for ever. Defaults in {@link DEFAULT_CONNECTION_TIMEOUTS}.
 */
export interface ConnectionTimeouts {
  /**
   * Silence from a client that owes bytes: before its first byte, inside a request, or while it
   * does not read the answer. The time the server itself takes to answer (an `api_latency` fault)
   * does not count.
   */
  idleMs: number;
  /** A TLS handshake, from its first byte to its end. */
  handshakeMs: number;
  /** From a request's first byte to the end of its headers; a byte at a time (slowloris) does not extend it. */
  headersMs: number;
  /** From a request's first byte to the end of its body; at least `headersMs`. */
  requestMs: number;
  /** A kept-alive connection waiting for its next request (node closes it one second later than this, so a client told this value never races the close). */
  keepAliveMs: number;
}

/**
 * 10 s of silence or handshake, 20 s for the headers, 60 s for a whole request, 5 s between
 * kept-alive requests: generous for any real client on a network, short enough that 1,000 idle or
 * slowloris connections are gone within about a minute (docs/fidelity.md).
 */
const DEFAULT_CONNECTION_TIMEOUTS: Readonly<ConnectionTimeouts> = {
  idleMs: 10_000,
  handshakeMs: 10_000,
  headersMs: 20_000,
  requestMs: 60_000,
  keepAliveMs: 5_000,
};

/** Connections held at once: far more than any test suite opens, and half of the common limit of 1,024 file descriptors, which leaves the rest to webhook deliveries. */
export const DEFAULT_MAX_CONNECTIONS = 512;

/** Options of {@link startNodeServer}. */
export interface NodeServerOptions {
  core: ApiCore;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Certificate and key in PEM; null serves plain HTTP (`--http`). */
  tls: { cert: string; key: string } | null;
  /** Largest body read; one byte more is kept so the core answers 413. */
  bodyLimit: number;
  /** Overrides of {@link DEFAULT_CONNECTION_TIMEOUTS}, field by field. */
  timeouts?: Partial<ConnectionTimeouts>;
  /** Connections held at once, default {@link DEFAULT_MAX_CONNECTIONS}; one more is closed as it is accepted. 0: no cap. */
  maxConnections?: number;
  /** Where an unexpected error of the transport goes, with its request id (the mock's own logger); default stderr. */
  logError?: (requestId: string, error: unknown) => void;
}

/** A listening server. */
export interface RunningServer {
  /** `https://127.0.0.1:4010` (the address it listens on). */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** TLS records start with this byte (a handshake); plain HTTP starts with a method's letter. */
const TLS_HANDSHAKE = 0x16;

/**
 * Larger bodies are written a slice at a time, each once the socket drained the one before: a client that
 * does not read then holds the answer once, not also its encrypted copy in TLS's and node's buffers.
 */
const WRITE_SLICE_BYTES = 64 * 1024;

/** Node's own answer to a request that did not arrive in time (there is no 408 code in the error shape). */
const REQUEST_TIMEOUT = Buffer.from(`HTTP/1.1 408 ${STATUS_CODES[408]}\r\nConnection: close\r\n\r\n`);

/**
 * The lean transport of `bvs-mock serve`: node's own HTTP(S) server calling the
 * core directly, without express or msw in the hot path (docs/decisions/0002).
 * With TLS, one port serves both: a connection that does not start a TLS
 * handshake is answered in plain HTTP with 400 `https_required` (spec §5.1),
 * instead of a dropped connection the client cannot explain. Every stage of a
 * connection is bounded by {@link ConnectionTimeouts}, in both modes.
 */
export async function startNodeServer(options: NodeServerOptions): Promise<RunningServer> {
  const timeouts = connectionTimeouts(options.timeouts);
  const httpOptions: ServerOptions = {
    keepAliveTimeout: timeouts.keepAliveMs,
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    // Node enforces the two deadlines above on this interval (default 30 s), so a connection outlives its deadline by up to one interval.
    connectionsCheckingInterval: Math.min(1_000, Math.max(10, Math.floor(timeouts.headersMs / 4))),
    // Node would answer a missing Host with a bare 400; `handle` answers it in the error shape.
    requireHostHeader: false,
  };
  // Per connection, the answer being written: a pipelined request waits for it (docs/fidelity.md row 102).
  const turns: Turns = new WeakMap();
  // On the TLS port this server only sees connections that did not start TLS: one answer, then close (spec §5.1, §7.1).
  const plain = createHttpServer(httpOptions, answerWith(options, { secure: false, closeAfter: options.tls !== null, turns }));
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  // The HTTP servers: `plain`, and with TLS `secure`; with TLS both are handed sockets by `listener`.
  const servers: Server[] = [plain];
  let listener: NetServer;
  if (options.tls) {
    const secure = createHttpsServer(
      { ...httpOptions, cert: options.tls.cert, key: options.tls.key, handshakeTimeout: timeouts.handshakeMs },
      answerWith(options, { secure: true, closeAfter: false, turns }),
    );
    servers.push(secure);
    listener = createNetServer((socket) => {
      track(socket);
      socket.on('error', () => socket.destroy());
      // Until its first byte the socket belongs to no HTTP server, so no HTTP timeout covers it.
      socket.setTimeout(timeouts.idleMs, closeSilentSocket);
      socket.once('data', (chunk: Buffer) => {
        socket.pause();
        // The server the socket goes to sets its own timeouts.
        socket.setTimeout(0, closeSilentSocket);
        socket.unshift(chunk);
        if (chunk[0] === TLS_HANDSHAKE) {
          // Hand the socket over still paused: the TLS socket reads what is buffered on its first
          // tick, and resuming here would flush the chunk to no listener.
          secure.emit('connection', socket);
          return;
        }
        // Plain HTTP on the HTTPS port: node's HTTP parser reads it (a head in pieces, any target,
        // garbage) and the core answers https_required (spec §5.1). The HTTP server reads the
        // socket's handle directly, so the chunk put back reaches it only once the socket flows.
        plain.emit('connection', socket);
        socket.resume();
      });
    });
  } else {
    listener = plain;
    plain.on('connection', track);
  }
  for (const server of servers) {
    server.timeout = timeouts.idleMs;
    server.on('clientError', onClientError);
    server.on('connect', onConnectMethod);
  }
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  if (maxConnections > 0) listener.maxConnections = maxConnections;
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port, options.host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  // Once listening, an error is a failed accept (out of descriptors): node goes on listening, and an
  // 'error' nobody listens for would end the process.
  listener.on('error', () => undefined);
  const fedServers = options.tls ? servers : [];
  for (const server of fedServers) {
    // Node starts the checker of headersTimeout and requestTimeout when an HTTP server emits
    // 'listening' (setupConnectionsTracking, lib/_http_server.js). These servers never listen, they
    // are handed sockets, so without this a slowloris connection on the HTTPS port lives for ever.
    server.emit('listening');
  }
  const port = (listener.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        // Stops the timeout checkers started above; these servers have no port to close.
        for (const server of fedServers) server.close();
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** The timeouts with their defaults, refused at start when node would refuse them later or never close a connection. */
function connectionTimeouts(given: Partial<ConnectionTimeouts> = {}): ConnectionTimeouts {
  const timeouts: ConnectionTimeouts = { ...DEFAULT_CONNECTION_TIMEOUTS };
  for (const name of Object.keys(timeouts) as Array<keyof ConnectionTimeouts>) {
    const ms = given[name];
    if (ms === undefined) continue;
    if (!Number.isInteger(ms) || ms <= 0)
      throw new Error(
        `bvs-mock: timeouts.${name} is ${ms}; give a whole number of milliseconds above 0, or leave it out for ${DEFAULT_CONNECTION_TIMEOUTS[name]}.`,
      );
    timeouts[name] = ms;
  }
  if (timeouts.headersMs > timeouts.requestMs)
    throw new Error(
      `bvs-mock: timeouts.headersMs (${timeouts.headersMs}) is longer than timeouts.requestMs (${timeouts.requestMs}); the headers are part of the request, so give requestMs at least ${timeouts.headersMs}.`,
    );
  return timeouts;
}

/** A 'timeout' listener of a socket no server owns yet. */
function closeSilentSocket(this: Socket): void {
  this.destroy();
}

function onClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // HTTP parse errors (HPE_*) get an answer in the error shape; a late request gets node's own 408
  // and no wait for a client that is too slow to read it; TLS failures and resets just close.
  if (error.code?.startsWith('HPE_'))
    socket.end(
      rawResponse(
        refused(
          problems.invalidRequest(
            `The request could not be read as HTTP/1.1 (${error.code}). Send a standard method (GET, POST, PATCH, DELETE) and well-formed headers.`,
          ),
        ),
      ),
    );
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.end(REQUEST_TIMEOUT, () => socket.destroy());
  else socket.destroy();
}

/** Node drops a CONNECT request nobody listens for without a word, and leaves its socket to the listener. */
function onConnectMethod(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  const answer = refused(
    problems.invalidRequest(
      'CONNECT is not supported: bvs-mock is an API server, not a proxy. Send the request itself (GET, POST, PATCH, DELETE) to this address.',
    ),
  );
  socket.end(rawResponse(answer), () => socket.destroy());
}

/** The answer to a request the core did not answer, in the error shape, with an id of its own, closing the connection. */
function refused(problem: ApiProblem): CoreResponse {
  // Requests the core did not answer (unparsable HTTP, no Host, a failure) get ids of their own, random so
  // that no count is shared between the servers of one process.
  const requestId = `req_conn_${randomInt(100_000_000_000, 999_999_999_999)}`;
  const answer = problem.toResponse(requestId);
  answer.headers['x-request-id'] = requestId;
  answer.headers.connection = 'close';
  return answer;
}

/** A response written straight onto a socket that has no HTTP server any more. */
function rawResponse(answer: CoreResponse): Buffer {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : Buffer.from(answer.body);
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`];
  for (const [name, value] of Object.entries({ ...answer.headers, 'content-length': String(body.length), connection: 'close' })) head.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]);
}

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
type Turns = WeakMap<Duplex, Promise<void>>;

/** How one of the HTTP servers answers its requests. */
interface AnswerMode {
  /** Whether the request arrived over TLS. */
  secure: boolean;
  /** Close the connection after the answer (plain HTTP on the TLS port). */
  closeAfter: boolean;
  /** The server's answers being written, by connection; absent in someone else's server (the express middleware). */
  turns?: Turns;
}

function answerWith(options: NodeServerOptions, mode: AnswerMode) {
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
  return handle({ core, bodyLimit: core.bodyLimit }, { request, response, secure, closeAfter: false, body });
}

async function handle(
  options: Pick<NodeServerOptions, 'core' | 'bodyLimit' | 'logError'>,
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
    const body = given ?? (await readBody(request, options.bodyLimit));
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
