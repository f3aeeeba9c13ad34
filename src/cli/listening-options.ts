import { Option, type Command } from 'commander';
import { hostnames, integer } from './serve-flag-values';

/**
 * The flags of where a tool of bvs-mock listens (`proxy`, `listen`): `--port` (its own variable and default, so two
 * of them can run side by side), `--host`, `--http`, `--tls-cert`, `--tls-key`, `--tls-hostnames`, as `serve` has them.
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
    );
}
