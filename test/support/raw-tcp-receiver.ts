import { createServer, type AddressInfo, type Socket } from 'node:net';

/** A TCP server on loopback that reads each HTTP request and answers raw bytes, HTTP or not. */
export interface RawTcpReceiver {
  /** `http://127.0.0.1:PORT/hooks`. */
  url: string;
  /** How many complete requests arrived. */
  requests(): number;
  close(): Promise<void>;
}

/**
 * Starts a receiver that answers every request with `answer` (written as is,
 * then the connection is closed): for checking how delivery copes with a
 * receiver speaking something that is not HTTP. The test closes it.
 */
export async function startRawTcpReceiver(answer: string | Buffer): Promise<RawTcpReceiver> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onEachRequest(socket, () => {
      requests += 1;
      socket.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A receiver that accepts every connection, reads what comes and never answers (until told to). */
export interface HangingTcpReceiver {
  /** `http://127.0.0.1:PORT/hooks`. */
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Complete requests read so far. */
  requests(): number;
  /** Connections open now (each one an attempt still waiting for its answer). */
  open(): number;
  /** From now on, each request that completes is answered `200` (those already hanging keep hanging). */
  answerFromNow(): void;
  close(): Promise<void>;
}

/**
 * Starts a receiver that hangs: it accepts the connection, takes the request and never says a
 * word, so every delivery to it waits the whole delivery timeout; `answerFromNow()` brings it back.
 * The test closes it (which destroys the connections still open).
 */
export async function startHangingTcpReceiver(): Promise<HangingTcpReceiver> {
  const sockets = new Set<Socket>();
  let connections = 0;
  let requests = 0;
  let answering = false;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Reads everything, so the sender's writes never block: it waits for an answer, not for a window.
    onEachRequest(socket, () => {
      requests += 1;
      if (answering) socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    connections: () => connections,
    requests: () => requests,
    open: () => sockets.size,
    answerFromNow: () => {
      answering = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads a socket's HTTP requests (head, then a body of its Content-Length) and calls `onRequest` as each one completes. */
function onEachRequest(socket: Socket, onRequest: () => void): void {
  let buffered = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = Number(/content-length:\s*(\d+)/i.exec(buffered.subarray(0, end).toString('latin1'))?.[1] ?? 0);
    if (buffered.length < end + 4 + length) return;
    buffered = Buffer.alloc(0);
    onRequest();
  });
}
