import { createHmac } from 'node:crypto';
import { BvsMockConfig, EntityValidation } from '../../src/schemas';
import { expectApiError, startTestServer, useTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// Regression: the HMAC key of pre-signed URLs was `bvs-mock:<seed>`, the seed defaulted to 1 and was
// printed at start, and the file lookup searched every organization, so a URL forged offline with an
// expiry in 2100 downloaded another organization's report. Now the key is random unless a seed is given,
// the organization is in the signed path and the only place looked in, and no expiry lies beyond 24 h.

const CONFIG = BvsMockConfig.parse({
  organizations: [
    { id: 'acme', api_keys: ['test_key_acme'] },
    { id: 'globex', api_keys: ['test_key_globex'] },
  ],
});

/** 2100-01-01T00:00:00Z, the expiry of the forged URL that worked. */
const YEAR_2100 = 4102444800;

/** A signature as the signer makes it, with a key the forger guessed. */
function forge(key: string, path: string, expires: number): string {
  return createHmac('sha256', key).update(`${path}\n${expires}`).digest('hex').slice(0, 32);
}

/** The consolidated report URL of a played happy-partners validation of `key`'s organization. */
async function reportUrl(t: TestServer, key: string): Promise<URL> {
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key });
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`, key)).json());
  return new URL(validation.data_source_run_batches[0]!.consolidated_report_url!);
}

function batchOf(url: URL): string {
  return /\/(dsrb_\w+)\.pdf$/.exec(url.pathname)![1]!;
}

describe('without a seed (the key is random)', () => {
  const t = useTestServer({ config: CONFIG }, { reset: false });
  let acme: URL;
  let globex: URL;

  beforeAll(async () => {
    acme = await reportUrl(t, 'test_key_acme');
    globex = await reportUrl(t, 'test_key_globex');
  });

  test('report URLs name their organization in the path, and each downloads', async () => {
    expect(acme.pathname).toMatch(/^\/_mock\/files\/acme\/reports\/dsrb_\w+\.pdf$/);
    expect(globex.pathname).toMatch(/^\/_mock\/files\/globex\/reports\/dsrb_\w+\.pdf$/);
    expect((await t.call(acme.toString())).status).toBe(200);
    expect((await t.call(globex.toString())).status).toBe(200);
  });

  test.each([
    ['the old path, with key bvs-mock:1', (batch: string) => `/_mock/files/reports/${batch}.pdf`],
    ['the new path, with key bvs-mock:1', (batch: string) => `/_mock/files/globex/reports/${batch}.pdf`],
  ])('a URL forged offline for the report of another organization, expiring in 2100, is refused: %s', async (_label, pathOf) => {
    const path = pathOf(batchOf(globex));
    const answer = await t.call(`${path}?expires=${YEAR_2100}&signature=${forge('bvs-mock:1', path, YEAR_2100)}`);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).not.toBe('application/pdf');
  });

  test('a URL of organization A with its path edited to name a batch of organization B is refused', async () => {
    const edited = new URL(acme);
    edited.pathname = acme.pathname.replace(batchOf(acme), batchOf(globex));
    expectApiError(await t.call(edited.toString()), 404, 'not_found');
    const moved = new URL(acme);
    moved.pathname = acme.pathname.replace('/acme/', '/globex/');
    expectApiError(await t.call(moved.toString()), 404, 'not_found');
  });
});

describe('with an explicit seed (the key follows it)', () => {
  const t = useTestServer({ config: CONFIG, seed: 7 }, { reset: false });
  let acme: URL;
  let globex: URL;

  beforeAll(async () => {
    acme = await reportUrl(t, 'test_key_acme');
    globex = await reportUrl(t, 'test_key_globex');
  });

  test('a URL signed with the seed key within 24 hours downloads (the forge helper signs as the server does)', async () => {
    const expires = Number(acme.searchParams.get('expires'));
    expect(forge('bvs-mock:7', acme.pathname, expires)).toBe(acme.searchParams.get('signature'));
    const forged = `${acme.pathname}?expires=${expires}&signature=${forge('bvs-mock:7', acme.pathname, expires)}`;
    expect((await t.call(forged)).headers['content-type']).toBe('application/pdf');
  });

  test('a validly signed URL whose expiry lies beyond 24 hours (2100) is refused', async () => {
    const path = acme.pathname;
    expectApiError(await t.call(`${path}?expires=${YEAR_2100}&signature=${forge('bvs-mock:7', path, YEAR_2100)}`), 404, 'not_found');
  });

  test('a validly signed URL naming organization A and a batch of organization B is refused: lookups stay in A', async () => {
    const path = `/_mock/files/acme/reports/${batchOf(globex)}.pdf`;
    const expires = Number(acme.searchParams.get('expires'));
    expectApiError(await t.call(`${path}?expires=${expires}&signature=${forge('bvs-mock:7', path, expires)}`), 404, 'not_found');
  });
});

test('the same explicit seed in two servers gives the same URL; without one, ids follow a drawn seed and URLs a random key', async () => {
  const urls = async (seed: number | undefined) => {
    // The same public URL and start in both, so only the seed and the key can differ.
    const t = await startTestServer({ config: CONFIG, seed, publicUrl: 'https://127.0.0.1:4010', startTime: '2026-01-15T10:00:00Z' });
    try {
      const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: 'test_key_acme' });
      await t.runClock();
      const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`, 'test_key_acme')).json());
      const drawn = (await t.call('/_mock/health')).json<{ seed: number }>().seed;
      return { url: new URL(validation.data_source_run_batches[0]!.consolidated_report_url!), seed: drawn };
    } finally {
      await t.close();
    }
  };
  const [seededA, seededB] = [await urls(42), await urls(42)];
  expect(seededA.url.toString()).toBe(seededB.url.toString());
  expect([seededA.seed, seededB.seed]).toEqual([42, 42]);
  const [randomA, randomB] = [await urls(undefined), await urls(undefined)];
  // Two unseeded starts draw different seeds, so their ids differ (docs/fidelity.md row 113)...
  expect(randomA.seed).not.toBe(randomB.seed);
  expect(randomA.url.pathname).not.toBe(randomB.url.pathname);
  // ...and the signing key is not derived from the drawn seed, which anyone can read from /_mock/health.
  const expires = Number(randomA.url.searchParams.get('expires'));
  expect(randomA.url.searchParams.get('signature')).not.toBe(forge(`bvs-mock:${randomA.seed}`, randomA.url.pathname, expires));
  expect(seededA.url.searchParams.get('signature')).toBe(forge('bvs-mock:42', seededA.url.pathname, Number(seededA.url.searchParams.get('expires'))));
});
