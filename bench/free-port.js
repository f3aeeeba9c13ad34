'use strict';
const net = require('node:net');

/** A port free on 127.0.0.1 right now, for a server that must be told its port in advance (Prism has no "port 0"). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

module.exports = { freePort };
