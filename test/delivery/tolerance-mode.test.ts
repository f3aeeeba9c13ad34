import { validatePayload } from '../../src/contract';
import { SCENARIOS, startBvsMock, startWebhookReceiver, type RunningBvsMock, type WebhookReceiver } from '../../src/testing';

// Tolerance mode: every delivery carries fields the contract does not list and, where the spec lists only the
// values seen, values it does not list, chosen from the seed. bvs-mock validate accepts them (the service's
// payloads are open), and rejects the unknown fields with --strict.

type Json = Record<string, any>;

async function playAll(bvs: RunningBvsMock, receiver: WebhookReceiver, names: Array<keyof typeof SCENARIOS>): Promise<Json[]> {
  await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url });
  for (const name of names) {
    const { tin, country } = SCENARIOS[name];
    const created = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tin, country }),
    });
    const { id, data_source_run_batches: batches } = (await created.json()) as { id: string; data_source_run_batches: Array<{ id: string }> };
    if (name === 'missingInputData') {
      await bvs.control.waitForEvent('data_source_run_batch.data_source_run.ready', { validationId: id });
      const read = (await (
        await bvs.fetch(`${bvs.url}/api/v2/entity_validations/${id}`, { headers: { authorization: `Bearer ${bvs.apiKey}` } })
      ).json()) as Json;
      const waiting = read.data_source_run_batches[0].data_source_runs.find((run: Json) => run.status === 'missing_input_data');
      await bvs.control.supplyInput(waiting.id);
    }
    expect(batches.length).toBe(1);
    await bvs.control.waitForSettled(id);
  }
  return receiver.received.map((webhook) => webhook.body as Json);
}

/** Every value a field takes across the bodies, for objects of one kind (by id prefix). */
function valuesOf(bodies: Json[], field: string, holder: (object: Json) => boolean): Set<unknown> {
  const values = new Set<unknown>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      const object = value as Json;
      if (holder(object) && field in object) values.add(object[field]);
      Object.values(object).forEach(visit);
    }
  };
  bodies.forEach(visit);
  return values;
}

const prefixed = (prefix: string) => (object: Json) => typeof object.id === 'string' && object.id.startsWith(prefix);

test('with --tolerance, every built-in scenario delivers payloads with unknown fields and unlisted values that validate accepts', async () => {
  const receiver = await startWebhookReceiver();
  const bvs = await startBvsMock({ clock: 'instant', tolerance: true, seed: 7 });
  try {
    const bodies = await playAll(bvs, receiver, Object.keys(SCENARIOS) as Array<keyof typeof SCENARIOS>);
    expect(bodies.length).toBeGreaterThan(100);
    for (const body of bodies) {
      const tolerant = validatePayload(body);
      expect({ type: body.type, issues: tolerant.ok ? [] : tolerant.issues }).toEqual({ type: body.type, issues: [] });
      const strict = validatePayload(body, undefined, { strict: true });
      expect(strict.ok).toBe(false);
      if (!strict.ok) expect(strict.issues.every((issue) => issue.code === 'unknown_field')).toBe(true);
    }
    // Where the spec lists only the values seen, the values sent are ones it does not list.
    expect([...valuesOf(bodies, 'severity', prefixed('rlal_'))].every((value) => !['medium', 'high', 'low', 'critical'].includes(value as string))).toBe(true);
    expect(valuesOf(bodies, 'severity', prefixed('rlal_')).size).toBeGreaterThan(0);
    expect(valuesOf(bodies, 'status', prefixed('evl_')).has('created')).toBe(false);
    expect(valuesOf(bodies, 'execution_type', prefixed('dsrb_'))).toEqual(new Set(['indirect']));
    expect(valuesOf(bodies, 'status', prefixed('irq_')).has('pending')).toBe(false);
    expect(valuesOf(bodies, 'source', (object) => 'constitution_date' in object)).toEqual(new Set(['registry_extract']));
    // The envelope stays type plus one resource key.
    for (const body of bodies) expect(Object.keys(body)).toHaveLength(2);
  } finally {
    await bvs.stop();
    await receiver.close();
  }
});

test('the same seed gives the same tolerant payloads; without the mode nothing changes', async () => {
  const runs: Json[][] = [];
  for (const tolerance of [true, true, false]) {
    const receiver = await startWebhookReceiver();
    const bvs = await startBvsMock({ clock: 'instant', tolerance, seed: 11 });
    try {
      runs.push(await playAll(bvs, receiver, ['happyPartners']));
    } finally {
      await bvs.stop();
      await receiver.close();
    }
  }
  // Each run has its own port, which pre-signed URLs carry.
  const bytes = (bodies: Json[]) => JSON.stringify(bodies).replace(/https:\/\/127\.0\.0\.1:\d+/g, 'https://bvs');
  expect(bytes(runs[0]!)).toBe(bytes(runs[1]!));
  for (const body of runs[2]!) expect(validatePayload(body, undefined, { strict: true }).ok).toBe(true);
});

test('a scenario with tolerance: true, and the tolerance fault, turn the mode on for their deliveries only', async () => {
  const receiver = await startWebhookReceiver();
  const bvs = await startBvsMock({ clock: 'instant' });
  try {
    await bvs.control.addScenario({
      name: 'tolerant-one',
      description: 'One run, delivered in tolerance mode.',
      tins: ['76999997-7'],
      tolerance: true,
      entity: { tin: '76999997-7', country: 'CL', category: 'business', name: 'Tolerante SpA', runs: [{ type: 'cl/sii', outcomes: [{ succeeded: '5s' }] }] },
    });
    await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url });
    const create = async (tin: string) => {
      const answer = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tin, country: 'CL' }),
      });
      const { id } = (await answer.json()) as { id: string };
      await bvs.control.waitForSettled(id);
      return receiver.received.splice(0).map((webhook) => webhook.body as Json);
    };
    const strictOk = (bodies: Json[]) => bodies.map((body) => validatePayload(body, undefined, { strict: true }).ok);
    expect(strictOk(await create('76999997-7')).every((ok) => !ok)).toBe(true);
    expect(strictOk(await create(SCENARIOS.happyNoPartners.tin)).every((ok) => ok)).toBe(true);
    await bvs.control.addFault({ kind: 'tolerance', event_type: 'data_source_run_batch.ready' });
    const faulted = await create(SCENARIOS.happyNoPartners.tin);
    expect(faulted.filter((body) => !validatePayload(body, undefined, { strict: true }).ok).map((body) => body.type)).toEqual(['data_source_run_batch.ready']);
  } finally {
    await bvs.stop();
    await receiver.close();
  }
});
