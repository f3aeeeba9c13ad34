import { createServer, type Server } from 'node:http';
import { startProxy, type StartedProxy } from '../../src/http/start-proxy';
import { Recorder } from '../../src/proxy/recorder';

// An upstream whose answer holds a field nested 100,000 levels deep: before, the proxy's check recursed through it to
// write what was sent, and the client got a 500 instead of the upstream's answer.

let upstream: Server;
let proxy: StartedProxy;
afterEach(async () => {
  await proxy?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

test("an upstream answer nested deeper than any of the service's goes back unchanged, its drift names the field without its value, and the recording writes", async () => {
  const depth = 100_000;
  const body = `{"id":"evl_1","extra":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
  upstream = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as { port: number };
  const recorder = new Recorder({ source: 'proxy', peer: `http://127.0.0.1:${port}` });
  proxy = await startProxy({ upstream: new URL(`http://127.0.0.1:${port}`), port: 0, http: true, onExchange: (exchange) => recorder.addExchange(exchange) });
  const answer = await fetch(`${proxy.url}/api/v2/entity_validations/evl_1`, { headers: { authorization: 'Bearer test_key_default' } });
  expect(answer.status).toBe(200);
  expect(await answer.text()).toBe(body);
  const extra = proxy.drift.answer().differences.find((difference) => difference.path === '$.extra');
  expect(extra).toMatchObject({ kind: 'unknown_field', actual: '(a value nested more than 64 levels deep)' });
  expect(JSON.stringify(recorder.recording()).length).toBeGreaterThan(depth);
});
