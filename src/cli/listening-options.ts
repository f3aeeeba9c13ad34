import { Option, type Command } from 'commander';
import { selfSignedCertificate, type TlsMaterial } from '../http/self-signed-certificate';
import { hostnames, integer } from './serve-flag-values';
import { readPem } from './serve-flags';

/** The flags {@link withListeningOptions} adds, once read. */
export interface ListeningFlags {
  port: number;
  host: string;
  http: boolean;
  tlsCert?: string;
  tlsKey?: string;
  tlsHostnames: string[];
  writeCertificate?: string;
}

/**
 * The flags of where a tool of bvs-mock listens (`proxy`, `listen`): `--port` (its own variable and default, so two
 * of them can run side by side), `--host`, `--http`, `--tls-cert`, `--tls-key`, `--tls-hostnames`, `--write-certificate`,
 * as `serve` has them.
 */
export function withListeningOptions(command: Command, port: { env: string; default: number }): Command {
  return command
    .addOption(
      new Option('--port <port>', 'port to listen on (0: any free port)')
        .env(port.env)
        .default(port.default)
        .argParser(integer('port', 0, 65535)),
    )
    .addOption(new Option('--host <host>', 'address to listen on (0.0.0.0 in a container)').env('BVS_MOCK_HOST').default('127.0.0.1'))
    .addOption(new Option('--http', 'serve plain HTTP instead of HTTPS').default(false))
    .addOption(new Option('--tls-cert <file>', 'certificate (PEM) instead of a self-signed one').env('BVS_MOCK_TLS_CERT'))
    .addOption(new Option('--tls-key <file>', 'private key (PEM) of --tls-cert').env('BVS_MOCK_TLS_KEY'))
    .addOption(
      new Option('--tls-hostnames <names>', 'more names of the self-signed certificate, comma-separated')
        .env('BVS_MOCK_TLS_HOSTNAMES')
        .default([])
        .argParser(hostnames),
    )
    .addOption(new Option('--write-certificate <file>', 'write the certificate served (PEM) to FILE on start, for clients to trust'));
}

/**
 * The certificate and key the tool serves, from its listening flags: `--tls-cert` and `--tls-key` (both or neither),
 * else a self-signed one naming `--host` and `--tls-hostnames`; null with `--http`, which takes no TLS flag.
 */
export async function listeningTls(flags: ListeningFlags): Promise<TlsMaterial | null> {
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined))
    throw new Error('--tls-cert and --tls-key go together: give both, or neither for a self-signed certificate');
  if (flags.http && (flags.tlsCert !== undefined || flags.writeCertificate !== undefined))
    throw new Error('--http serves plain HTTP, so --tls-cert, --tls-key and --write-certificate have no use with it');
  if (flags.http) return null;
  if (flags.tlsCert !== undefined) return { cert: readPem(flags.tlsCert, '--tls-cert'), key: readPem(flags.tlsKey!, '--tls-key') };
  return selfSignedCertificate([flags.host, ...flags.tlsHostnames]);
}
