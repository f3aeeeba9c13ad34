import { createRelayCore, type RelayCoreOptions } from '../relay/relay-core';
import type { WebhookRelay } from '../relay/webhook-relay';
import { startNodeServer, type ConnectionTimeouts } from './node-server';

/** Options of {@link startRelayServer}. */
export interface RelayServerOptions extends Omit<RelayCoreOptions, 'tls'> {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Certificate and key in PEM; null serves plain HTTP. */
  tls: { cert: string; key: string } | null;
  /** How long each stage of a connection may take; each field left out keeps `bvs-mock serve`'s default (node-server.ts). */
  timeouts?: Partial<ConnectionTimeouts>;
  /** Connections held at once; default `bvs-mock serve`'s (DEFAULT_MAX_CONNECTIONS in node-server.ts). */
  maxConnections?: number;
}

/** A listening relay. */
export interface RunningRelay {
  /** `https://127.0.0.1:4020`: where the service's endpoint points. */
  url: string;
  relay: WebhookRelay;
  close(): Promise<void>;
}

/**
 * Starts the relay of `bvs-mock listen` (src/relay/relay-core.ts) on the node transport of `bvs-mock serve`, with its
 * connection limit, its timeouts for silent, slow and half-open clients, and its answers to what is not HTTP.
 */
export async function startRelayServer(options: RelayServerOptions): Promise<RunningRelay> {
  const core = createRelayCore({ ...options, tls: options.tls !== null });
  const server = await startNodeServer({
    core,
    host: options.host,
    port: options.port,
    tls: options.tls,
    timeouts: options.timeouts,
    maxConnections: options.maxConnections,
  });
  return { url: server.url, relay: core.relay, close: () => server.close() };
}
