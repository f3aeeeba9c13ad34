import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '../../src/http/self-signed-certificate';
import { spawnCli } from './built-cli';
import { httpClient, type HttpClient } from './https-client';

/** `bvs-mock serve` running in a child process, with a client that trusts its certificate. */
export interface ServedCli {
  /** `https://127.0.0.1:PORT`. */
  url: string;
  client: HttpClient;
  /** What the server wrote to its standard error so far. */
  stderr(): string;
  /** Closes the client and kills the process (SIGKILL: a server whose event loop is stuck hears no SIGTERM). */
  close(): Promise<void>;
}

/**
 * Starts the built command line (`bvs-mock serve --port 0 --quiet ARGS`) over HTTPS on 127.0.0.1 with a
 * certificate made for the test. Tests of requests that could block the server's event loop use it
 * rather than `startTestServer`: in-process, a blocked loop blocks jest's own timers too, so such a
 * regression would stall the run instead of failing it; in a child process the test's timeout still
 * fires. It runs the build jest's global setup made (a system tier test); the test that starts it closes it.
 *
 * @example
 * const served = await startServedCli(['--strict']);
 * try { expect((await served.client.request('/_mock/health')).status).toBe(200); } finally { await served.close(); }
 */
export async function startServedCli(args: string[] = []): Promise<ServedCli> {
  const dir = mkdtempSync(join(tmpdir(), 'bvs-mock-served-'));
  const { cert, key } = await selfSignedCertificate(['127.0.0.1']);
  writeFileSync(join(dir, 'cert.pem'), cert);
  writeFileSync(join(dir, 'key.pem'), key);
  const child = spawnCli(['serve', '--port', '0', '--quiet', '--tls-cert', join(dir, 'cert.pem'), '--tls-key', join(dir, 'key.pem'), ...args]);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        const match = / listening on (https:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match !== null) resolve(match[1]!);
      });
      void exited.then(() => reject(new Error(`bvs-mock serve exited before listening: ${stderr}`)));
    });
    const client = httpClient({ baseUrl: url, ca: cert });
    return {
      url,
      client,
      stderr: () => stderr,
      async close() {
        client.close();
        await kill();
      },
    };
  } catch (error) {
    await kill();
    throw error;
  }
}
