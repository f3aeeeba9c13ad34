// bvs-mock's image from a jest test with Testcontainers for Node: started per test file on a free port, ready
// once /_mock/health answers, removed afterwards. npm install -D testcontainers; Docker (or podman's socket,
// examples/ci/README.md) must be running.
import { request } from 'node:https';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { SCENARIOS, connectBvsMock } from 'bvs-mock/testing';

// The image bvs-mock's release workflow pushes (ghcr.io/<owner>/<repo>:X.Y), or one built with `docker build -t bvs-mock .`.
const IMAGE = process.env.BVS_MOCK_IMAGE ?? 'ghcr.io/your-org/bvs-mock:0.1';

let container: StartedTestContainer;
let url: string;
let ca: string;

/** One HTTPS request, verified against `ca` unless it is the certificate's own fetch. */
function send(method: string, path: string, body?: unknown): Promise<{ status: number; json: () => unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: 'Bearer test_key_default', 'content-type': 'application/json' };
    const trust = ca === undefined ? { rejectUnauthorized: false } : { ca };
    const outgoing = request(new URL(path, url), { method, headers, ...trust }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text, json: () => JSON.parse(text) }));
    });
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

beforeAll(async () => {
  container = await new GenericContainer(IMAGE).withExposedPorts(4010).withWaitStrategy(Wait.forHttp('/_mock/health', 4010).usingTls().allowInsecure()).start();
  // The certificate names localhost and 127.0.0.1, where Testcontainers reaches a local engine.
  url = `https://${container.getHost()}:${container.getMappedPort(4010)}`;
  ca = (await send('GET', '/_mock/certificate')).text;
}, 120_000);

afterAll(async () => {
  await container?.stop();
});

test('creates a validation over verified HTTPS and plays it to the end', async () => {
  const { tin, country } = SCENARIOS.happyPartners;
  const created = await send('POST', '/api/v2/entity_validations', { tin, country });
  expect(created.status).toBe(201);

  const events = await connectBvsMock(url, { ca }).waitForSettled((created.json() as { id: string }).id);
  expect(events[events.length - 1]?.type).toBe('data_source_run_batch.consolidated_report_ready');
});
