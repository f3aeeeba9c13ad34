import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { freePort } from '../support/free-port';
import { BASE_IMAGE, podman, podmanUnavailable, removePodmanScratch } from '../support/podman';
import { ensureTestImage } from '../support/test-image';

// The image as client CI runs it, for real: built with podman from the unchanged Dockerfile (on a stand-in for
// the node base image, since no registry is reachable here; said in the output), run with a published port,
// and checked from the host: the HEALTHCHECK itself, HTTPS under a service name with the certificate fetched
// from the container, a webhook to a receiver on the host, a mounted scenario directory, configuration by
// environment variables only and by a mounted file, the non-root user, and SIGTERM ending it with exit 0.

jest.setTimeout(900_000);

const unavailable = podmanUnavailable();
if (unavailable !== null && process.env.CI === 'true') throw new Error(`container tests must run in CI: ${unavailable}`);
const describeWithPodman = unavailable === null ? describe : describe.skip;
if (unavailable !== null) process.stderr.write(`container tests skipped: ${unavailable}\n`);

let IMAGE: string;
const containers: string[] = [];
let scratch: string;
let receiver: WebhookReceiver;
let imageLayersBytes = 0;

/** An HTTPS request to the published port, verified against `ca` as `servername` (or not verified, without `ca`). */
function fetchTls(
  port: number,
  path: string,
  options: { ca?: string; servername?: string; method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        servername: options.servername,
        ...(options.ca === undefined ? { rejectUnauthorized: false } : { ca: options.ca }),
      },
      (answer) => {
        let text = '';
        answer.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

async function waitHealthy(port: number, scheme: 'https' | 'http' = 'https'): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if (scheme === 'https' && (await fetchTls(port, '/_mock/health')).status === 200) return;
      if (scheme === 'http' && (await fetch(`http://127.0.0.1:${port}/_mock/health`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the container on port ${port} never answered /_mock/health`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function run(name: string, args: string[]): void {
  containers.push(name);
  podman(['run', '-d', '--name', name, ...args]);
}

describeWithPodman('the image, built and run with podman', () => {
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'bvs-mock-container-'));
    receiver = await startWebhookReceiver({ host: '0.0.0.0', publicHost: 'host.containers.internal' });
    // Built once for every container test file of the run (test/support/test-image.ts), and kept for the next.
    IMAGE = ensureTestImage((line) => process.stdout.write(`${line}\n`));
    const size = (image: string) => Number(podman(['image', 'inspect', '--format', '{{.Size}}', image]).trim());
    imageLayersBytes = size(IMAGE) - size(BASE_IMAGE);
    process.stdout.write(
      `podman: image ${(size(IMAGE) / 1e6).toFixed(0)} MB, of which bvs-mock's layers ${(imageLayersBytes / 1e6).toFixed(1)} MB (budget 25 MB)\n`,
    );
  });

  afterAll(async () => {
    for (const name of containers) {
      try {
        podman(['rm', '-f', name]);
      } catch {
        // Already gone.
      }
    }
    await receiver?.close();
    rmSync(scratch, { recursive: true, force: true });
    removePodmanScratch();
  });

  test("bvs-mock's own layers stay within 25 MB: one bundled file, no node_modules", () => {
    expect(imageLayersBytes).toBeGreaterThan(0);
    expect(imageLayersBytes).toBeLessThan(25 * 1024 * 1024);
    const listed = podman(['run', '--rm', '--entrypoint', 'ls', IMAGE, '/app']);
    expect(listed.split('\n').filter(Boolean).sort()).toEqual(['bin', 'bundle', 'dashboard-dist', 'openapi', 'package.json', 'scenarios', 'scenarios.d']);
  });

  test('configured by environment variables only: health check, HTTPS as "bvs" with the fetched certificate, a webhook to the host, a mounted scenario, the node user, and SIGTERM to exit 0', async () => {
    const port = await freePort();
    const scenarios = join(scratch, 'scenarios');
    spawnSync('mkdir', ['-p', scenarios]);
    writeFileSync(
      join(scenarios, 'mounted.yaml'),
      "name: mounted-scenario\ndescription: Mounted into the container.\ntins: ['76999996-9']\nentity:\n  tin: '76999996-9'\n  country: CL\n  category: business\n  name: Montada SpA\n  runs:\n    - type: cl/sii\n      outcomes: [{ succeeded: 5s }]\n",
    );
    run('bvs-env', [
      '-p',
      `127.0.0.1:${port}:4010`,
      '-v',
      `${scenarios}:/app/scenarios.d:ro`,
      '-e',
      'BVS_MOCK_TLS_HOSTNAMES=bvs',
      '-e',
      `BVS_MOCK_WEBHOOK_URL=${receiver.url}`,
      '-e',
      'BVS_MOCK_ALLOW_HTTP_WEBHOOKS=true',
      IMAGE,
    ]);
    await waitHealthy(port);
    // The HEALTHCHECK of the image, as the engine runs it.
    podman(['healthcheck', 'run', 'bvs-env']);

    const certificate = (await fetchTls(port, '/_mock/certificate')).text;
    expect(certificate).toContain('BEGIN CERTIFICATE');
    const verified = await new Promise<boolean>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, servername: 'bvs', ca: certificate }, () => {
        resolve(socket.authorized);
        socket.end();
      });
      socket.once('error', reject);
    });
    expect(verified).toBe(true);

    const trusted = { ca: certificate, servername: 'bvs' };
    expect((await fetchTls(port, '/_mock/scenarios', trusted)).text).toContain('mounted-scenario');
    const created = await fetchTls(port, '/api/v2/entity_validations', {
      ...trusted,
      method: 'POST',
      headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
      body: JSON.stringify({ tin: '76999996-9', country: 'CL' }),
    });
    expect(created.status).toBe(201);
    await fetchTls(port, '/_mock/clock/run', { ...trusted, method: 'POST' });
    const types = (await receiver.waitFor(3, 30_000)).map((webhook) => (webhook.body as { type: string }).type);
    expect(types).toContain('data_source_run_batch.ready');

    expect(podman(['exec', 'bvs-env', 'id', '-u']).trim()).toBe('1000');

    const stopping = Date.now();
    podman(['stop', '-t', '10', 'bvs-env']);
    const stopMs = Date.now() - stopping;
    process.stdout.write(`podman: SIGTERM to exit took ${stopMs} ms (podman stop included)\n`);
    expect(podman(['inspect', '--format', '{{.State.ExitCode}}', 'bvs-env']).trim()).toBe('0');
    expect(podman(['logs', 'bvs-env'])).toContain('bvs-mock: stopped (SIGTERM)');
  });

  test('configured by a mounted file, with --http --port as CMD arguments and no BVS_MOCK_HTTP: the health check still passes', async () => {
    const port = await freePort();
    const config = join(scratch, 'bvs.yaml');
    writeFileSync(config, 'organizations:\n  - id: acme\n    api_keys: [key_from_file]\n');
    run('bvs-file', [
      '-p',
      `127.0.0.1:${port}:8080`,
      '-v',
      `${config}:/config/bvs.yaml:ro`,
      '-e',
      'BVS_MOCK_CONFIG=/config/bvs.yaml',
      IMAGE,
      'serve',
      '--http',
      '--port',
      '8080',
    ]);
    await waitHealthy(port, 'http');
    podman(['healthcheck', 'run', 'bvs-file']);
    const answer = await fetch(`http://127.0.0.1:${port}/api/v2/webhook_endpoints`, { headers: { authorization: 'Bearer key_from_file' } });
    expect(answer.status).toBe(200);
    podman(['stop', '-t', '10', 'bvs-file']);
    expect(podman(['inspect', '--format', '{{.State.ExitCode}}', 'bvs-file']).trim()).toBe('0');
  });
});
