import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A TCP port on loopback that gives no HTTP answer, and what reached it. */
export interface SilentPort {
  /** `http://127.0.0.1:PORT/hooks`. */
  url: string;
  /** Connections accepted (0 for a closed port). */
  connections(): number;
  close(): Promise<void>;
}

/** How a port fails to answer: nothing listens, it accepts then resets, or it accepts and never writes. */
export type Silence = 'closed' | 'reset' | 'hang';

/**
 * A loopback port that never answers HTTP, in one of three ways a port scan tells apart: closed (the
 * connection is refused), reset (accepted, then reset with RST), hang (accepted, never written to).
 * The test closes it.
 */
export async function startSilentPort(silence: Silence): Promise<SilentPort> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (silence === 'reset') socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  // A closed port: the one just bound, let go (nothing else binds it between here and the test).
  if (silence === 'closed') await close();
  return { url: `http://127.0.0.1:${port}/hooks`, connections: () => connections, close };
}
