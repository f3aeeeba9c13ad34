'use strict';
/**
 * Hostile probe 6: readers that do not read. A page of `/_mock/events?limit=1000&order=newest` was 4.1 MB,
 * and 450 TLS connections asking for it without reading took the server to 5.4 GB (health failed for about
 * 20 s); 64 readers that did read peaked at 972 MB. Fills about 1,000 delivery records (84 validations of
 * happy-partners delivered to a local receiver), then opens NON_READERS TLS connections that each pipeline
 * PIPELINED requests for that page and never read, and samples the server's resident memory (from
 * `GET /_mock/health` when it shows it, else /proc/<pid>/status of the process listening on the port) until
 * the server lets them go; then READERS connections that read the same page at once.
 */
const fs = require('node:fs');
const http = require('node:http');
const tls = require('node:tls');

const VALIDATIONS = 84;
const NON_READERS = 450;
/** Requests each non-reading connection sends at once: before, each was answered (and held) at once. */
const PIPELINED = 2;
const READERS = 64;
/**
 * How long the non-readers are watched at most: the server lets a connection go 10 s (its idle timeout) after
 * its socket stopped draining, and the last of them stops draining once every answer before it was made.
 */
const WATCH_MS = 45_000;
const SAMPLE_EVERY_MS = 250;
const PAGE = '/_mock/events?limit=1000&order=newest';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MB`;

/** The pid of the process listening on `port` of 127.0.0.1, from /proc (Linux); null when it cannot be found. */
function listenerPid(port) {
  try {
    const hex = port.toString(16).toUpperCase().padStart(4, '0');
    const inodes = new Set();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        if (fields[1]?.endsWith(`:${hex}`) && fields[3] === '0A') inodes.add(fields[9]);
      }
    }
    for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      let fds;
      try {
        fds = fs.readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds) {
        try {
          const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
          if (match && inodes.has(match[1])) return Number(pid);
        } catch {
          // Gone meanwhile.
        }
      }
    }
  } catch {
    // Not Linux, or /proc unreadable.
  }
  return null;
}

/** Sockets the process holds open (its descriptors that are sockets), or NaN without /proc. */
function socketsOf(pid) {
  if (pid === null) return NaN;
  let count = 0;
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) count += 1;
      } catch {
        // Closed meanwhile.
      }
    }
  } catch {
    return NaN;
  }
  return count;
}

/** Resident memory now and at its peak, in bytes: from health when it says, else from /proc. */
async function memory(request, pid) {
  const health = JSON.parse((await request('/_mock/health', { timeoutMs: 10_000 })).body.toString('utf8'));
  if (health.memory?.rss_bytes !== undefined) return { rss: health.memory.rss_bytes, peak: null };
  if (pid === null) return { rss: NaN, peak: NaN };
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** A receiver that answers 204 to every delivery. */
function startReceiver() {
  const server = http.createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => outgoing.writeHead(204).end());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A TLS connection that sends `count` requests for the page at once and never reads. */
function nonReader(url, secureContext, count) {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = tls.connect({ host: hostname, port: Number(port), secureContext, servername: 'localhost' });
    socket.on('error', () => undefined);
    socket.once('secureConnect', () => {
      socket.pause();
      socket.write(`GET ${PAGE} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`.repeat(count));
      resolve(socket);
    });
    socket.once('close', () => resolve(socket));
  });
}

module.exports = {
  problem: 6,
  title: `${NON_READERS} connections asking for a large page and never reading`,
  serveArgs: ['--allow-http-webhooks'],
  async attack({ url, ca, request }) {
    const { port } = new URL(url);
    const pid = listenerPid(Number(port));
    const receiver = await startReceiver();
    const sockets = [];
    try {
      const json = { 'content-type': 'application/json' };
      const endpoint = await request('/_mock/webhook_endpoints', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'sink', url: `http://127.0.0.1:${receiver.address().port}/hooks`, auth_type: 'none' }),
      });
      if (endpoint.status !== 201) throw new Error(`adding the receiver answered ${endpoint.status}: ${endpoint.body}`);
      const scenarios = JSON.parse((await request('/_mock/scenarios')).body.toString('utf8')).scenarios;
      const happy = scenarios.find((scenario) => scenario.name === 'happy-partners');
      const tin = happy.tins?.[0] ?? happy.tin;
      for (let i = 0; i < VALIDATIONS; i += 1) {
        const created = await request('/api/v2/entity_validations', {
          method: 'POST',
          headers: { ...json, authorization: 'Bearer test_key_default' },
          body: JSON.stringify({ tin, country: 'CL' }),
        });
        if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
      }
      await request('/_mock/clock/run', { method: 'POST', timeoutMs: 60_000 });
      const page = await request(PAGE);
      const parsed = JSON.parse(page.body.toString('utf8'));
      const total = Object.values(parsed.counts).reduce((sum, count) => sum + count, 0);
      const pageSays = `a page of ${parsed.events.length} of ${total} records, ${mb(page.body.length)}, cut_by_size ${parsed.cut_by_size}`;

      const before = await memory(request, pid);
      const socketsBefore = socketsOf(pid);
      const started = Date.now();
      // One context for all: making one per connection (parsing the certificate each time) would keep this process, and the health calls beside it, busy.
      const secureContext = tls.createSecureContext({ ca });
      for (let i = 0; i < NON_READERS; i += 1) sockets.push(nonReader(url, secureContext, PIPELINED));
      await Promise.all(sockets);
      let peak = before.rss;
      let peakAt = 0;
      let mostSockets = socketsBefore;
      let letGoAt = null;
      while (Date.now() - started < WATCH_MS) {
        const now = await memory(request, pid);
        if (now.rss > peak) {
          peak = now.rss;
          peakAt = Date.now() - started;
        }
        const held = socketsOf(pid);
        mostSockets = Math.max(mostSockets, held);
        // Let go: the server holds no more sockets than before, give or take the health calls'.
        if (held <= socketsBefore + 5 && mostSockets > socketsBefore + NON_READERS / 2) {
          letGoAt = Date.now() - started;
          break;
        }
        await sleep(SAMPLE_EVERY_MS);
      }
      const after = await memory(request, pid);
      for (const socket of await Promise.all(sockets)) socket.destroy();

      const readStarted = Date.now();
      const reads = await Promise.all(
        Array.from({ length: READERS }, () => request(PAGE, { timeoutMs: 60_000 }).catch((error) => ({ status: error.code ?? 'failed' }))),
      );
      const readMs = Date.now() - readStarted;
      const readStatuses = {};
      for (const read of reads) readStatuses[read.status] = (readStatuses[read.status] ?? 0) + 1;
      const end = await memory(request, pid);
      const source = pid === null ? 'health' : `/proc/${pid}`;
      return (
        `${pageSays}; ${NON_READERS} non-readers x ${PIPELINED} pipelined requests: RSS ${mb(before.rss)} before, peak ${mb(peak)} at ${(peakAt / 1000).toFixed(1)} s ` +
        `(${((peak - before.rss) / NON_READERS / 1048576).toFixed(2)} MB a connection), ${mb(after.rss)} once let go; server sockets ${socketsBefore} before, ${mostSockets} at most, ` +
        (letGoAt === null ? `not all let go within ${WATCH_MS / 1000} s; ` : `all let go after ${(letGoAt / 1000).toFixed(1)} s; `) +
        `${READERS} readers that read: ${JSON.stringify(readStatuses)} in ${readMs} ms, RSS ${mb(end.rss)}` +
        (end.peak === null ? '' : `, process peak ${mb(end.peak)}`) +
        ` (memory from ${source})`
      );
    } finally {
      for (const socket of await Promise.all(sockets)) socket.destroy();
      await new Promise((resolve) => receiver.close(resolve));
    }
  },
};
