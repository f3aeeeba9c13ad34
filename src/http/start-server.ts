import { mockParts } from '../mock/create-mock';
import { createMock, type Mock, type MockOptions } from '../mock/create-mock';
import { DEFAULT_MAX_CONNECTIONS, startNodeServer, type ConnectionTimeouts, type RunningServer } from './node-server';
import { selfSignedCertificate, type TlsMaterial } from './self-signed-certificate';

/**
 * The most change-stream readers bvs-mock's server takes (`--max-stream-readers`): half its connections, since
 * readers hold theirs for as long as they read and the other half is for the API, health checks and the
 * dashboard's own reads (docs/fidelity.md row 101).
 */
export const MAX_STREAM_READERS_OVER_SERVER = DEFAULT_MAX_CONNECTIONS / 2;

/** Options of {@link startServer}: the mock's, plus where and how to listen. */
export interface ServerOptions extends MockOptions {
  host?: string;
  /** 0 picks a free port; default 4010. */
  port?: number;
  /** Plain HTTP instead of HTTPS (`--http`). */
  http?: boolean;
  /** A certificate and key to use instead of a self-signed one. */
  tls?: TlsMaterial;
  /**
   * More names the self-signed certificate is valid for (`--tls-hostnames`), like the service name a CI job
   * reaches bvs-mock by (`bvs`); it always names localhost, 127.0.0.1, ::1, the listening host and the public
   * URL's host. Each is also answered for (`allowedHosts`).
   */
  tlsHostnames?: readonly string[];
  /** How long each stage of a connection may take; each field left out keeps its default (DEFAULT_CONNECTION_TIMEOUTS in node-server.ts). */
  timeouts?: Partial<ConnectionTimeouts>;
}

/** A running bvs-mock: the mock, and the server around it. */
export interface StartedServer extends Mock {
  url: string;
  port: number;
  /** The certificate served (PEM), so clients can trust it; null with `--http`. */
  certificate: string | null;
  close(): Promise<void>;
}

/**
 * Starts bvs-mock on node's HTTP(S) server: HTTPS with a self-signed
 * certificate by default (spec §5.1), plain HTTP with `http: true`.
 */
export async function startServer(options: ServerOptions = {}): Promise<StartedServer> {
  const host = options.host ?? '127.0.0.1';
  const publicHost = options.publicUrl === undefined ? [] : [new URL(options.publicUrl).hostname.replace(/^\[|\]$/g, '')];
  const tls = options.http ? null : (options.tls ?? (await selfSignedCertificate([host, ...publicHost, ...(options.tlsHostnames ?? [])])));
  if (options.maxStreamReaders !== undefined && options.maxStreamReaders > MAX_STREAM_READERS_OVER_SERVER)
    throw new Error(
      `bvs-mock: maxStreamReaders (--max-stream-readers) is ${options.maxStreamReaders}; bvs-mock's server serves at most ${MAX_STREAM_READERS_OVER_SERVER}, half of the ${DEFAULT_MAX_CONNECTIONS} connections it holds at once, so stream readers never keep out API calls and health checks.`,
    );
  // The names it was told it is reached by are answered for, beside those of allowedHosts (docs/fidelity.md row 104).
  const allowedHosts = options.allowedHosts === 'all' ? 'all' : [...(options.allowedHosts ?? []), host, ...(options.tlsHostnames ?? [])];
  const mock = createMock({ ...options, allowedHosts, requireHttps: options.requireHttps ?? !options.http });
  const parts = mockParts(mock);
  parts.server.certificate = tls?.cert ?? null;
  let server: RunningServer;
  try {
    server = await startNodeServer({
      core: mock.core,
      host,
      port: options.port ?? 4010,
      tls,
      timeouts: options.timeouts,
      logError: parts.server.logError,
    });
  } catch (error) {
    mock.dispose();
    throw error;
  }
  parts.world.signer.setBaseUrl(options.publicUrl ?? server.url);
  return {
    ...mock,
    url: server.url,
    port: server.port,
    certificate: tls?.cert ?? null,
    close: async () => {
      await server.close();
      mock.dispose();
    },
  };
}
