import { startServer, type StartedServer } from '../../src/http';
import { EntityValidation, READINGS } from '../../src/schemas';
import { SCENARIOS, startBvsMock, type RunningBvsMock } from '../../src/testing';

// The matrix recipe (README, "Readings"): a client's suite run once per value of a reading. The same client test,
// in-process and as a session on a running bvs-mock, under each value of ready-on-main-failure: under `sent` the
// main batch's ready arrives with runs_succeeded false; under `withheld` it never arrives, so a client that waits
// for it as its completion signal is caught here instead of in production.

let server: StartedServer;
beforeAll(async () => {
  server = await startServer({ port: 0, clock: 'manual' });
});
afterAll(async () => {
  await server.close();
});

/** What a client sees of a main-definitive-error validation: the event types, in order. */
async function clientSees(bvs: RunningBvsMock): Promise<string[]> {
  const created = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tin: SCENARIOS.mainDefinitiveError.tin, country: SCENARIOS.mainDefinitiveError.country }),
  });
  expect(created.status).toBe(201);
  const events = await bvs.control.waitForSettled(EntityValidation.parse(await created.json()).id);
  return events.map((event) => event.type);
}

const values = READINGS.find((reading) => reading.name === 'ready-on-main-failure')!.values;

describe.each(['in-process', 'session'] as const)('%s', (where) => {
  const seen = new Map<string, string[]>();

  test.each(values)('ready-on-main-failure=%s', async (value) => {
    const readings = { 'ready-on-main-failure': value };
    const bvs = await (where === 'in-process'
      ? startBvsMock({ clock: 'instant', readings })
      : startBvsMock({ url: server.url, ca: server.certificate!, clock: 'instant', readings }));
    try {
      seen.set(value, await clientSees(bvs));
    } finally {
      await bvs.stop();
    }
  });

  test('the two runs differ by the main batch ready alone', () => {
    const sent = seen.get('sent')!;
    expect(sent).toContain('data_source_run_batch.ready');
    expect(seen.get('withheld')).toEqual(sent.filter((type) => type !== 'data_source_run_batch.ready'));
  });
});
