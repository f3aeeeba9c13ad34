import '../../src/testing/jest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type StartedServer } from '../../src/http';
import { EntityValidation } from '../../src/schemas';
import { connectBvsMock, SCENARIOS, startBvsMock, startWebhookReceiver, type RunningBvsMock } from '../../src/testing';
import { freePort } from '../support/free-port';

// startBvsMock({ url }) and BVS_MOCK_URL: a session of the test's own on a bvs-mock running elsewhere, with the same
// RunningBvsMock as a local start; its labels, and the report stop() leaves for a suite reporter.

let server: StartedServer;
beforeAll(async () => {
  server = await startServer({ port: 0, clock: 'manual', maxSessions: 2 });
});
afterAll(async () => {
  await server.close();
});

const ENV = ['BVS_MOCK_URL', 'BVS_MOCK_CA', 'BVS_MOCK_CONTROL_TOKEN', 'BVS_MOCK_REPORT_DIR'];
afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

async function createValidation(bvs: RunningBvsMock): Promise<string> {
  const created = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' }),
  });
  expect(created.status).toBe(201);
  return EntityValidation.parse(await created.json()).id;
}

test('a session on a running bvs-mock over HTTPS: its own credentials and clock, the certificate pinned, and stop() ends it', async () => {
  const bvs = await startBvsMock({ url: server.url, clock: 'instant', seed: 7 });
  try {
    expect(bvs.url).toBe(server.url);
    expect(bvs.certificate).toBe(server.certificate);
    expect(bvs.apiKey).toMatch(/^bvs_key_/);
    expect(bvs.oauthClient.clientId).toMatch(/^bvs_client_/);
    expect(bvs.legacyToken).toMatch(/^tok_legacy_/);
    const id = await createValidation(bvs);
    // The instant clock is the session's own: it settles with no clock call, while the server's stays manual.
    const events = await bvs.control.waitForSettled(id);
    expect(events.at(-1)?.type).toBe('data_source_run_batch.consolidated_report_ready');
    expect((await bvs.control.clock()).mode).toBe('instant');
    expect((await connectBvsMock(server.url, { ca: server.certificate! }).clock()).mode).toBe('manual');
    expect((await connectBvsMock(server.url, { ca: server.certificate! }).validations()).validations).toEqual([]);
  } finally {
    await bvs.stop();
  }
  const listed = await connectBvsMock(server.url, { ca: server.certificate! }).sessions();
  expect(listed.sessions.map((session) => session.id)).toEqual(['default']);
});

test('BVS_MOCK_URL, BVS_MOCK_CA (a file) and the label: the session is named by the test file and test, and so are its requests', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bvs-mock-ca-'));
  try {
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, server.certificate!);
    process.env.BVS_MOCK_URL = server.url;
    process.env.BVS_MOCK_CA = caFile;
    const bvs = await startBvsMock();
    try {
      const title = expect.getState().currentTestName!;
      const session = (await connectBvsMock(server.url, { ca: server.certificate! }).sessions()).sessions.find((item) => !item.default)!;
      expect(session.label).toBe(`test/testing/remote-session.test.ts › ${title}`);
      await createValidation(bvs);
      const journal = await bvs.control.requests();
      expect(journal.requests.map((entry) => [entry.operation, entry.label])).toEqual([['createEntityValidation', title]]);
    } finally {
      await bvs.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the delivery records of a validation created under a label show it; those of one created without a label show none', async () => {
  const receiver = await startWebhookReceiver();
  const bvs = await startBvsMock({ url: server.url, clock: 'instant' });
  try {
    await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url });
    const labelled = await createValidation(bvs);
    // A label header of its own, empty: bvs.fetch leaves it as it is, and bvs-mock reads no label in it.
    const headers = { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json', 'x-bvs-mock-label': '' };
    const body = JSON.stringify({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' });
    const plain = EntityValidation.parse(await (await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, { method: 'POST', headers, body })).json()).id;
    await bvs.control.waitForSettled(labelled);
    await bvs.control.waitForSettled(plain);
    const records = await bvs.control.allEvents({ entity_validation_id: labelled });
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((record) => record.label))).toEqual(new Set([expect.getState().currentTestName]));
    const others = await bvs.control.allEvents({ entity_validation_id: plain });
    expect(others.length).toBe(records.length);
    expect(others.filter((record) => 'label' in record)).toEqual([]);
  } finally {
    await bvs.stop();
    await receiver.close();
  }
});

test("options of the server's start are refused, each named, instead of being ignored", async () => {
  await expect(startBvsMock({ url: server.url, port: 4010, webhookUrl: 'https://hooks.test/x', clock: 'manual' })).rejects.toThrow(
    /^bvs-mock: port, webhookUrl are options of a bvs-mock's start, not of a session on the running one at https:\/\/127\.0\.0\.1:\d+ \(the url option\)/,
  );
  await expect(startBvsMock({ url: server.url, transport: 'in-process' })).rejects.toThrow('url and transport exclude each other');
  await expect(startBvsMock({ ca: 'x' })).rejects.toThrow('the ca option is for a running bvs-mock');
});

test('an unreachable instance and a full one are refused saying what to do', async () => {
  const port = await freePort();
  process.env.BVS_MOCK_URL = `https://127.0.0.1:${port}`;
  await expect(startBvsMock()).rejects.toThrow(`bvs-mock: no bvs-mock answers at https://127.0.0.1:${port} (BVS_MOCK_URL)`);
  delete process.env.BVS_MOCK_URL;
  const first = await startBvsMock({ url: server.url });
  const second = await startBvsMock({ url: server.url });
  try {
    await expect(startBvsMock({ url: server.url })).rejects.toThrow(/makes no more sessions: 2 sessions are open, .*--max-sessions/);
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});

test('a locked instance takes the control token from BVS_MOCK_CONTROL_TOKEN, and says so without it', async () => {
  const locked = await startServer({ port: 0, http: true, controlToken: 'let-me-in' });
  try {
    await expect(startBvsMock({ url: locked.url })).rejects.toThrow('is locked: give its control token as controlToken or BVS_MOCK_CONTROL_TOKEN');
    process.env.BVS_MOCK_CONTROL_TOKEN = 'let-me-in';
    const bvs = await startBvsMock({ url: locked.url });
    try {
      expect(bvs.certificate).toBeNull();
      expect((await bvs.control.health()).status).toBe('ok');
    } finally {
      await bvs.stop();
    }
  } finally {
    await locked.close();
  }
});

test('with BVS_MOCK_REPORT_DIR, stop() writes the contract report with the test file, for a suite reporter', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bvs-mock-reports-'));
  try {
    process.env.BVS_MOCK_REPORT_DIR = dir;
    const bvs = await startBvsMock({ url: server.url, label: 'mine' });
    const bad = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tin: 12 }),
    });
    expect(bad.status).toBe(422);
    await bvs.stop();
    const [file] = readdirSync(dir);
    const saved = JSON.parse(readFileSync(join(dir, file!), 'utf8'));
    expect(saved).toMatchObject({ version: 1, test_file: __filename, label: 'mine' });
    expect(saved.report.violations.requests.map((request: { label?: string }) => request.label)).toEqual([expect.getState().currentTestName]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("two sessions on one running bvs-mock: each one's toHaveReceived and journal see only its own requests", async () => {
  const first = await startBvsMock({ url: server.url, clock: 'instant' });
  const second = await startBvsMock({ url: server.url, clock: 'instant' });
  try {
    await createValidation(first);
    await createValidation(first);
    await createValidation(second);
    await expect(first).toHaveReceived({ operation: 'createEntityValidation', times: 2 });
    await expect(second).toHaveReceived({ operation: 'createEntityValidation', body: { tin: SCENARIOS.happyNoPartners.tin }, times: 1 });
    expect((await second.journal.requests({ method: 'POST', path: '/api/v2/entity_validations' })).map((entry) => entry.status)).toEqual([201]);
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});
