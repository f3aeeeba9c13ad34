import { createServer, type Server } from 'node:http';
import { BlockList, type AddressInfo } from 'node:net';
import { post } from '../../src/delivery/http-post';
import { checkReceiver, type ReceiverCheckReport } from '../../src/probes/receiver-check';
import { ReceiverUrlError } from '../../src/testing';
import { startSilentPort, type Silence } from '../support/silent-port';

// Regression: the receiver check was a port scanner. Its answers told a closed port (connection_refused) from one
// that accepts and resets (connection_reset) and one that never answers (timeout, with its duration), kept 500
// characters of whatever answered, and took URLs with credentials and hosts written as 0x7f000001 or 127.1 as
// given (docs/fidelity.md row 106).

/** Every answer of a report, as JSON, without repeats. */
const answers = (report: ReceiverCheckReport) => [...new Set(report.results.flatMap((result) => result.exchanges.map(({ answer }) => JSON.stringify(answer))))];
const reasons = (report: ReceiverCheckReport) => [...new Set(report.results.map((result) => result.reason))];

test('a closed port, a port that accepts and resets and a port that never answers give the same answer: unreachable, no duration, no excerpt', async () => {
  const reports = new Map<Silence, ReceiverCheckReport>();
  for (const silence of ['closed', 'reset', 'hang'] as const) {
    const port = await startSilentPort(silence);
    try {
      reports.set(silence, await checkReceiver({ url: port.url, auth: { kind: 'secret', value: 'whsec_x' }, timeoutMs: 150 }));
      if (silence !== 'closed') expect(port.connections()).toBeGreaterThan(0);
    } finally {
      await port.close();
    }
  }
  for (const report of reports.values()) {
    expect(answers(report)).toEqual([JSON.stringify({ status: null, duration_ms: null, error: 'unreachable', body_excerpt: '' })]);
    expect(report.passed).toBe(0);
  }
  // Nothing in the reports tells the three apart: not the codes, not the reasons, not a duration.
  const [closed, reset, hang] = [...reports.values()].map((report) => JSON.stringify({ answers: answers(report), reasons: reasons(report) }));
  expect(reset).toBe(closed);
  expect(hang).toBe(closed);
  expect(reasons(reports.get('closed')!)).toContain('it was not acknowledged: no HTTP answer (unreachable)');
}, 30_000);

test('a URL with credentials is refused before anything is sent, without repeating the password', async () => {
  const port = await startSilentPort('hang');
  try {
    const url = port.url.replace('http://', 'http://tester:hunter2@');
    const refusal = await checkReceiver({ url, auth: { kind: 'none' }, timeoutMs: 150 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ReceiverUrlError);
    expect((refusal as ReceiverUrlError).code).toBe('credentials_in_url');
    expect((refusal as Error).message).toContain('carries credentials (user:password@)');
    expect((refusal as Error).message).toContain('--auth secret:');
    expect((refusal as Error).message).not.toContain('hunter2');
    expect(port.connections()).toBe(0);
  } finally {
    await port.close();
  }
});

test('a host written as a number (0x7f000001, 127.1) is probed as WHATWG URL reads it, and the report names that address', async () => {
  const server: Server = createServer((_request, response) => response.writeHead(200).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    for (const host of ['0x7f000001', '127.1']) {
      const report = await checkReceiver({ url: `http://${host}:${port}/hooks`, auth: { kind: 'none' } });
      expect(report.url).toBe(`http://127.0.0.1:${port}/hooks`);
      expect(report.results[0]!.exchanges[0]!.request.url).toBe(`http://127.0.0.1:${port}/hooks`);
      expect(report.failed).toBe(0);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('an HTTP answer keeps a short excerpt of its body: 200 characters', async () => {
  const server: Server = createServer((_request, response) => response.writeHead(500).end('x'.repeat(5000)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const report = await checkReceiver({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, auth: { kind: 'none' } });
    const answer = report.results[0]!.exchanges[0]!.answer;
    expect(answer).toMatchObject({ status: 500, error: null, body_excerpt: 'x'.repeat(200) });
    expect(typeof answer.duration_ms).toBe('number');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a host name is checked once resolved: one that resolves to a refused address is never connected to', async () => {
  const server: Server = createServer((_request, response) => response.writeHead(200).end());
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const refused = new BlockList();
  refused.addSubnet('127.0.0.0', 8, 'ipv4');
  refused.addAddress('::1', 'ipv6');
  try {
    const { port } = server.address() as AddressInfo;
    const common = { headers: {}, body: '{}', timeoutMs: 2000, insecureTls: false, refusedAddresses: refused };
    expect(await post({ url: `http://localhost:${port}/hooks`, ...common })).toMatchObject({ status: null, error: 'address_refused' });
    expect(await post({ url: `http://127.1:${port}/hooks`, ...common })).toMatchObject({ status: null, error: 'address_refused' });
    expect(connections).toBe(0);
    expect(await post({ url: `http://localhost:${port}/hooks`, ...common, refusedAddresses: undefined })).toMatchObject({ status: 200, error: null });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
