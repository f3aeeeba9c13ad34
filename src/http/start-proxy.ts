import { createProxyCore, type ProxyCore, type ProxyCoreOptions } from '../proxy/proxy-core';
import { startNodeServer } from './node-server';
import { selfSignedCertificate, type TlsMaterial } from './self-signed-certificate';

/** Options of {@link startProxy}: the proxy's, plus where and how it listens (as `startServer`'s). */
export interface ProxyServerOptions extends ProxyCoreOptions {
  host?: string;
  /** 0 picks a free port; default 4010. */
  port?: number;
  /** Plain HTTP instead of HTTPS (`--http`). */
  http?: boolean;
  /** A certificate and key to use instead of a self-signed one. */
  tls?: TlsMaterial;
  /** More names for the self-signed certificate (`--tls-hostnames`). */
  tlsHostnames?: readonly string[];
}

/** A listening proxy. */
export interface StartedProxy {
  url: string;
  port: number;
  /** The certificate served (PEM), so clients can trust it; null with `http`. */
  certificate: string | null;
  /** The drift found so far (`GET /_mock/drift`). */
  drift: ProxyCore['drift'];
  close(): Promise<void>;
}

/** Starts `bvs-mock proxy` on node's HTTP(S) server: HTTPS with a self-signed certificate unless told otherwise. */
export async function startProxy(options: ProxyServerOptions): Promise<StartedProxy> {
  const host = options.host ?? '127.0.0.1';
  const tls = options.http ? null : (options.tls ?? (await selfSignedCertificate([host, ...(options.tlsHostnames ?? [])])));
  const core = createProxyCore(options);
  const server = await startNodeServer({ core, host, port: options.port ?? 4010, tls });
  return { url: server.url, port: server.port, certificate: tls?.cert ?? null, drift: core.drift, close: () => server.close() };
}
