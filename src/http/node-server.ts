import { createServer as createHttpServer, type Server, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { ApiCore } from '../api/api-core';
import { answerWith, type Turns } from './answer-node-request';
import { onClientError, onConnectMethod } from './raw-answers';

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
