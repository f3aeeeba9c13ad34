import { STATUS_CODES, createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { ApiCore } from './api-core';
import { problems } from './api-problem';
import type { CoreRequest, CoreResponse } from './core-types';
import type { Duplex } from 'node:stream';

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
 * The lean transport of `bvs-mock serve`: node's own HTTP(S) server calling the
 * core directly, without express or msw in the hot path (docs/decisions/0002).
 * With TLS, one port serves both: a connection that does not start a TLS
 * handshake is answered in plain HTTP with 400 `https_required` (spec §5.1),
 * instead of a dropped connection the client cannot explain.
 */
export async function startNodeServer(options: NodeServerOptions): Promise<RunningServer> {
  const onRequest = (secure: boolean) => (request: IncomingMessage, response: ServerResponse) => {
    void handle(options, request, response, secure);
  };
  const plain = createHttpServer({ keepAliveTimeout: 5_000 }, onRequest(false));
  const onClientError = (error: Error & { code?: string }, socket: Duplex) => {
    // Only HTTP parse errors (HPE_*) get an answer; TLS handshake failures and resets just close.
    if (socket.writable && error.code?.startsWith('HPE_')) socket.end(unparsable(error.code));
    else socket.destroy();
  };
  plain.on('clientError', onClientError);
  const sockets = new Set<Socket>();
  let listener: Server | ReturnType<typeof createNetServer>;
  if (options.tls) {
    const secure = createHttpsServer({ cert: options.tls.cert, key: options.tls.key, keepAliveTimeout: 5_000 }, onRequest(true));
    secure.on('clientError', onClientError);
    listener = createNetServer((socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.once('data', (chunk: Buffer) => {
        socket.pause();
        if (chunk[0] !== TLS_HANDSHAKE) {
          // Plain HTTP on the HTTPS port: the core answers it (https_required, journal, request id),
          // in plain HTTP, and the connection closes (spec §5.1, §7.1).
          void answerPlainRequest(options.core, chunk).then((raw) => socket.end(raw));
          return;
        }
        // Put the bytes back and hand the socket over still paused: the TLS socket reads what is
        // buffered on its first tick, and resuming here would flush the chunk to no listener.
        socket.unshift(chunk);
        secure.emit('connection', socket);
      });
      socket.on('error', () => socket.destroy());
    });
  } else {
    listener = plain;
    plain.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
  }
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port, options.host, () => resolve());
  });
  const port = (listener.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Requests refused before the core could see them (unparsable HTTP) get ids of their own. */
let connectionErrors = 0;

/** A response written straight onto a socket, closing it. */
function rawResponse(answer: CoreResponse): Buffer {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : Buffer.from(answer.body);
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`];
  for (const [name, value] of Object.entries({ ...answer.headers, 'content-length': String(body.length), connection: 'close' })) head.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]);
}

/** Reads the request line and headers of a plain request on the TLS port and lets the core answer it. */
async function answerPlainRequest(core: ApiCore, chunk: Buffer): Promise<Buffer> {
  const text = chunk.toString('latin1');
  const line = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(text);
  if (!line) return unparsable('the connection sent neither TLS nor HTTP');
  const headers: CoreRequest['headers'] = {};
  for (const header of text.slice(line[0].length).split(/\r?\n/)) {
    const colon = header.indexOf(':');
    if (colon > 0) headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  }
  const url = new URL(line[2]!, 'http://bvs-mock.local');
  return rawResponse(await core.handle({ method: line[1]!, path: url.pathname, query: url.searchParams, headers, body: Buffer.alloc(0), secure: false }));
}

/** The answer to a request node's HTTP parser refused (an unknown method, a malformed line). */
function unparsable(reason: string): Buffer {
  connectionErrors += 1;
  const requestId = `req_conn_${connectionErrors.toString().padStart(6, '0')}`;
  const answer = problems.invalidRequest(`The request could not be read as HTTP/1.1 (${reason}). Send a standard method (GET, POST, PATCH, DELETE) and well-formed headers.`).toResponse(requestId);
  answer.headers['x-request-id'] = requestId;
  return rawResponse(answer);
}

async function handle(options: NodeServerOptions, request: IncomingMessage, response: ServerResponse, secure: boolean): Promise<void> {
  try {
    const body = await readBody(request, options.bodyLimit);
    const url = new URL(request.url ?? '/', 'http://bvs-mock.local');
    const headers: CoreRequest['headers'] = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const answer = await options.core.handle({ method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, headers, body, secure });
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  } catch (error) {
    // Only a broken connection gets here (the core answers every error itself).
    if (!response.headersSent) response.writeHead(400, { 'content-type': 'text/plain', connection: 'close' });
    response.end();
    request.destroy(error as Error);
  }
}

/** Reads the body, keeping at most `limit + 1` bytes so an oversized body costs no memory but is still refused. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
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
