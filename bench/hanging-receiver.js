'use strict';
/** A webhook receiver for the hostile probes (bench/hostile/) that accepts connections, reads and never answers. */
const net = require('node:net');

/** Starts a receiver that never answers; resolves with its URL, its counters and how to close it. */
async function hangingReceiver() {
  const sockets = new Set();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

module.exports = { hangingReceiver };
