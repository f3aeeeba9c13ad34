import { request as httpRequest } from 'node:http';
import { startTestServer, expectApiError, DEFAULT_API_KEY, bearer, type TestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// A web page the tester opens must not drive bvs-mock: a page on another port reset it with a no-cors POST,
// added a scenario with a text/plain one, and a name rebound to 127.0.0.1 (DNS rebinding) read everything,
// since the Host header was never looked at (docs/fidelity.md rows 103, 104).

/** One request with the headers given as they are, `Host` included (a browser on a rebound name sends that name). */
function raw(url: string, { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string }) {
  const target = new URL(url);
  return new Promise<{ status: number; json: () => { error: { code: string; message: string } } }>((resolve, reject) => {
    const outgoing = httpRequest({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: () => JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function validationCount(t: TestServer): Promise<number> {
  return (await t.call('/_mock/entity_validations')).json<{ validations: unknown[] }>().validations.length;
}

test('refuses a control request from a page of another origin (another localhost port) with 403 forbidden_origin, and changes nothing', async () => {
  const t = await startTestServer();
  try {
    await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
    for (const origin of ['http://127.0.0.1:5173', 'https://localhost:4010', 'null', `https://127.0.0.1:${t.server.port + 1}`]) {
      const error = expectApiError(await t.call('/_mock/reset', { method: 'POST', headers: { origin } }), 403, 'forbidden_origin');
      expect(error.message).toContain(`Origin: ${origin}`);
      expect(error.message).toContain(`the dashboard at ${t.server.url}/_mock/`);
    }
    expect(await validationCount(t)).toBe(1);
    // The dashboard's own page (its origin is the server's), and clients that send no Origin, pass.
    expect((await t.call('/_mock/reset', { method: 'POST', headers: { origin: t.server.url } })).status).toBe(200);
    expect((await t.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
    // A page whose referrer policy is no-referrer (the dashboard's) posts with `Origin: null`: its browser says it is the same origin.
    expect((await t.call('/_mock/reset', { method: 'POST', headers: { origin: 'null', 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expectApiError(await t.call('/_mock/reset', { method: 'POST', headers: { origin: 'null', 'sec-fetch-site': 'cross-site' } }), 403, 'forbidden_origin');
  } finally {
    await t.close();
  }
});

test('refuses cross-site and same-site requests without Origin by Sec-Fetch-Site, but not a navigation to a read', async () => {
  const t = await startTestServer();
  try {
    for (const site of ['cross-site', 'same-site']) {
      expectApiError(await t.call('/_mock/requests', { headers: { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors' } }), 403, 'forbidden_origin');
      expectApiError(
        await t.call('/_mock/reset', { method: 'POST', headers: { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate' } }),
        403,
        'forbidden_origin',
      );
      expect((await t.call('/_mock/requests', { headers: { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate' } })).status).toBe(200);
    }
    for (const site of ['same-origin', 'none'])
      expect((await t.call('/_mock/reset', { method: 'POST', headers: { 'sec-fetch-site': site } })).status).toBe(200);
    // The API itself is for any client, browsers included: its credential is the guard.
    expect((await t.call('/api/v2/webhook_endpoints', { headers: { ...bearer(DEFAULT_API_KEY), origin: 'http://127.0.0.1:5173' } })).status).toBe(200);
  } finally {
    await t.close();
  }
});

test('refuses a scenario upload as text/plain (what a no-cors page can send) with 415, and still takes YAML and JSON', async () => {
  const t = await startTestServer();
  try {
    const yaml = (name: string, tin: string) =>
      `name: ${name}\ndescription: Added by a test.\ntins: ["${tin}"]\nentity: { tin: ${tin}, country: CL, category: business, name: Temporal SpA, runs: [{ type: cl/sii, outcomes: [{ succeeded: 5s }] }] }\n`;
    const refused = expectApiError(
      await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: yaml('plain-one', '76999999-K') }),
      415,
      'unsupported_media_type',
    );
    expect(refused.message).toContain('application/yaml');
    for (const [type, name, tin] of [
      ['application/yaml', 'yaml-one', '76999998-1'],
      ['application/x-yaml', 'x-yaml-one', '76999997-3'],
      ['text/yaml; charset=utf-8', 'text-yaml-one', '76999996-5'],
    ])
      expect((await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': type! }, body: yaml(name!, tin!) })).status).toBe(201);
    const json = {
      name: 'json-one',
      description: 'Added by a test.',
      tins: ['76999995-7'],
      entity: { tin: '76999995-7', country: 'CL', category: 'business', name: 'Json SpA', runs: [{ type: 'cl/sii', outcomes: [{ succeeded: '5s' }] }] },
    };
    expect((await t.json('POST', '/_mock/scenarios', json)).status).toBe(201);
    const names = (await t.call('/_mock/scenarios')).json<{ scenarios: Array<{ name: string }> }>().scenarios.map((scenario) => scenario.name);
    expect(names).not.toContain('plain-one');
  } finally {
    await t.close();
  }
});

test('refuses an unknown Host name (DNS rebinding) with 421 host_not_allowed naming the host and --allowed-hosts, on the API and the control API', async () => {
  const t = await startTestServer({ http: true });
  try {
    const rebound = await raw(`${t.server.url}/_mock/requests`, { headers: { host: `attacker.example:${t.server.port}` } });
    expect(rebound.status).toBe(421);
    expect(rebound.json().error.code).toBe('host_not_allowed');
    expect(rebound.json().error.message).toContain('attacker.example');
    expect(rebound.json().error.message).toContain('--allowed-hosts');
    expect((await raw(`${t.server.url}/api/v2/webhook_endpoints`, { headers: { host: 'attacker.example', ...bearer(DEFAULT_API_KEY) } })).status).toBe(421);
    expect((await raw(`${t.server.url}/_mock/reset`, { method: 'POST', headers: { host: 'evil.example.com.' } })).status).toBe(421);
  } finally {
    await t.close();
  }
});

test('takes IP literals, localhost names, single-label service names and .internal names as Host by default', async () => {
  const t = await startTestServer({ http: true });
  try {
    const port = t.server.port;
    const hosts = [
      `127.0.0.1:${port}`,
      '127.0.0.1',
      `[::1]:${port}`,
      '10.0.0.7:4010',
      `localhost:${port}`,
      'LOCALHOST',
      'app.localhost:4010',
      'bvs:4010',
      'bvs-mock',
      'bvs.',
      'host.containers.internal:4010',
      'host.docker.internal',
    ];
    const statuses = await Promise.all(hosts.map(async (host) => [host, (await raw(`${t.server.url}/_mock/health`, { headers: { host } })).status]));
    expect(statuses).toEqual(hosts.map((host) => [host, 200]));
    for (const host of ['attacker.example', 'bvs.example.com:4010', '127.0.0.1.nip.io', 'localhost.attacker.example', 'a b'])
      expect([host, (await raw(`${t.server.url}/_mock/health`, { headers: { host } })).status]).toEqual([host, 421]);
  } finally {
    await t.close();
  }
});

test('takes the --allowed-hosts names (a leading dot for a domain and its subdomains), the listening host, --tls-hostnames and the --public-url host', async () => {
  const t = await startTestServer({
    http: true,
    allowedHosts: ['mock.example.com', '.corp.example'],
    tlsHostnames: ['bvs.ci.example'],
    publicUrl: 'https://public.example.net:8443',
  });
  try {
    const at = async (host: string) => [host, (await raw(`${t.server.url}/_mock/health`, { headers: { host } })).status];
    for (const host of ['mock.example.com', 'corp.example', 'a.b.corp.example:4010', 'bvs.ci.example', 'public.example.net:8443'])
      expect(await at(host)).toEqual([host, 200]);
    for (const host of ['other.example.com', 'mock.example.com.attacker.example', 'xcorp.example']) expect(await at(host)).toEqual([host, 421]);
    // A page served through the public URL is the dashboard's own page.
    const reset = await raw(`${t.server.url}/_mock/reset`, {
      method: 'POST',
      headers: { host: 'public.example.net:8443', origin: 'https://public.example.net:8443' },
    });
    expect(reset.status).toBe(200);
  } finally {
    await t.close();
  }
  const open = await startTestServer({ http: true, allowedHosts: 'all' });
  try {
    expect((await raw(`${open.server.url}/_mock/health`, { headers: { host: 'anything.example' } })).status).toBe(200);
  } finally {
    await open.close();
  }
});
