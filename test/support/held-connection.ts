import type { Socket } from 'node:net';

/** Generous on a noisy 2-core machine: the longest wait of the connection tests is 1.2 s, or 0.3 s plus node's 1 s of keep-alive grace. */
export const BOUND_MS = 10_000;

/** One connection a test holds: when the server closed it, and what it answered. */
export interface HeldConnection {
  /** ms from opening to the server's close, or null when it was still open at {@link BOUND_MS}. */
  closedAfterMs: Promise<number | null>;
  received(): string;
}

/** Holds `socket` until the server closes it, or destroys it at {@link BOUND_MS}. */
export function hold(socket: Socket): HeldConnection {
  const opened = performance.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closedAfterMs = new Promise<number | null>((resolve) => {
    const bound = setTimeout(() => {
      resolve(null);
      socket.destroy();
    }, BOUND_MS);
    socket.once('close', () => {
      clearTimeout(bound);
      resolve(Math.round(performance.now() - opened));
    });
  });
  return { closedAfterMs, received: () => received };
}

/** Writes `byte` every 100 ms until the connection closes. */
export function dribble(socket: Socket, byte: string): void {
  const timer = setInterval(() => socket.write(byte), 100);
  socket.once('close', () => clearInterval(timer));
}
