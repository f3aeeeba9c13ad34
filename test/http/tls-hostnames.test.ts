import { connect } from 'node:tls';
import { startServer, type StartedServer } from '../../src/http';
import { httpClient } from '../support/https-client';

// HTTPS a CI job can trust: the self-signed certificate names the service name a container is reached by
// (--tls-hostnames) and the public URL's host, and GET /_mock/certificate serves it, so a client trusts it in
// one step instead of skipping verification.

async function certificateOf(server: StartedServer, headers: Record<string, string> = {}): Promise<{ status: number; type: string | undefined; pem: string }> {
  const client = httpClient({ baseUrl: server.url, ca: server.certificate });
  try {
    const answer = await client.request('/_mock/certificate', { headers });
    return { status: answer.status, type: answer.headers['content-type'] as string | undefined, pem: answer.text() };
  } finally {
    client.close();
  }
}

/** Whether a TLS client reaching 127.0.0.1 under `servername`, trusting only `ca`, accepts the server. */
function verifiedAs(server: StartedServer, servername: string, ca: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: server.port, servername, ca, rejectUnauthorized: false }, () => {
      const error = socket.authorized ? null : String(socket.authorizationError);
      socket.end();
      resolve(error);
    });
    socket.once('error', reject);
  });
}

test('the certificate served at /_mock/certificate verifies under a --tls-hostnames name and the public URL host, and under no other name', async () => {
  const server = await startServer({ port: 0, tlsHostnames: ['bvs'], publicUrl: 'https://mock.ci.internal:4010', controlToken: 'locked_control' });
  try {
    // Open even when the control API is locked: a certificate is public.
    const { status, type, pem } = await certificateOf(server);
    expect([status, type]).toEqual([200, 'application/x-pem-file']);
    expect(pem).toBe(server.certificate);
    expect(await verifiedAs(server, 'bvs', pem)).toBeNull();
    expect(await verifiedAs(server, 'mock.ci.internal', pem)).toBeNull();
    expect(await verifiedAs(server, 'localhost', pem)).toBeNull();
    expect(await verifiedAs(server, 'elsewhere', pem)).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  } finally {
    await server.close();
  }
});

test('over plain HTTP there is no certificate: 404 saying why', async () => {
  const server = await startServer({ port: 0, http: true });
  try {
    const client = httpClient({ baseUrl: server.url, ca: null });
    const answer = await client.request('/_mock/certificate');
    client.close();
    expect(answer.status).toBe(404);
    expect((answer.json() as { error: { message: string } }).error.message).toContain('serves plain HTTP (--http)');
  } finally {
    await server.close();
  }
});
