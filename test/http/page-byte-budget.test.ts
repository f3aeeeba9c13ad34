import { connectBvsMock, startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// A page of GET /_mock/events?limit=1000 was 4.1 MB, and 450 clients asking for it without reading took
// the server to 5.4 GB. Every control list page has a byte budget: it ends before the item that would pass
// it, says so (`cut_by_size`), and its next_cursor continues from there.

/** A small budget, so a few hundred records make many pages. */
const BUDGET = 16 * 1024;

interface Page {
  next_cursor: string | null;
  cut_by_size: boolean;
}

let receiver: WebhookReceiver;
let t: TestServer;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestServer({ clock: 'instant', allowHttpWebhooks: true, maxPageBytes: BUDGET });
  expect((await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, auth_type: 'none' })).status).toBe(201);
  for (let i = 0; i < 10; i += 1) await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** Every page of a list from its first, with the size of each body. */
async function allPages<T extends Page>(path: string): Promise<Array<{ page: T; bytes: number }>> {
  const pages: Array<{ page: T; bytes: number }> = [];
  let cursor: string | null = null;
  do {
    const answer = await t.call(`${path}${path.includes('?') ? '&' : '?'}limit=1000${cursor === null ? '' : `&cursor=${cursor}`}`);
    expect(answer.status).toBe(200);
    const page = answer.json<T>();
    pages.push({ page, bytes: answer.body.length });
    cursor = page.next_cursor;
  } while (cursor !== null && pages.length < 1_000);
  return pages;
}

test.each(['oldest', 'newest'])(
  'a page of /_mock/events (order %s) ends before the record that would pass the byte budget, says so, and its cursor goes on from there',
  async (order) => {
    const total = Object.values((await t.call('/_mock/events?limit=1')).json<{ counts: Record<string, number> }>().counts).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(100);
    const pages = await allPages<Page & { events: Array<{ id: string; sequence?: number; created_at: string }> }>(`/_mock/events?order=${order}`);
    expect(pages.length).toBeGreaterThan(5);
    for (const { page, bytes } of pages.slice(0, -1)) {
      expect(page.cut_by_size).toBe(true);
      expect(page.events.length).toBeGreaterThan(0);
      expect(page.events.length).toBeLessThan(1000);
      // The items take at most the budget; the rest of the body (counts, cursor) is small.
      expect(bytes).toBeLessThanOrEqual(BUDGET + 512);
    }
    expect(pages.at(-1)!.page.cut_by_size).toBe(false);
    const ids = pages.flatMap(({ page }) => page.events.map((event) => event.id));
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    // One order across the pages, as one unbounded page would have it.
    const all = (await t.call(`/_mock/events?order=${order}&limit=1000`)).json<{ events: unknown[] }>();
    expect(all.events.length).toBeLessThan(total);
    const whole = await connectBvsMock(t.server.url, { ca: t.server.certificate! }).allEvents({ order: order as 'oldest' | 'newest' });
    expect(whole.map((event) => event.id)).toEqual(ids);
  },
);

test('the journal, the emitted events and the validations are paged by size too, every item once', async () => {
  for (const [path, key, total] of [
    ['/_mock/emitted', 'events', undefined],
    ['/_mock/requests', 'requests', undefined],
    ['/_mock/entity_validations', 'validations', 10],
  ] as const) {
    const pages = await allPages<Page & Record<string, Array<Record<string, unknown>>>>(path);
    const items = pages.flatMap(({ page }) => page[key]!);
    if (total !== undefined) expect(items).toHaveLength(total);
    expect(pages.every(({ bytes }) => bytes <= BUDGET + 512)).toBe(true);
    expect(pages.slice(0, -1).every(({ page }) => page.cut_by_size)).toBe(true);
    const keyOf = (item: Record<string, unknown>) => String(item.id ?? item.sequence);
    expect(new Set(items.map(keyOf)).size).toBe(items.length);
  }
  // Enough events were emitted that their list needed more than one page.
  expect((await t.call('/_mock/emitted?limit=1000')).json<Page>().cut_by_size).toBe(true);
});

test("the testing library's waits follow pages cut by size: an event past the first page is found", async () => {
  const control = connectBvsMock(t.server.url, { ca: t.server.certificate! });
  const first = (await t.call('/_mock/emitted?limit=1000')).json<Page & { events: Array<{ sequence: number }> }>();
  expect(first.cut_by_size).toBe(true);
  const emitted = await control.eventsFor((await control.validations({ limit: 1 })).validations[0]!.id);
  const last = emitted.at(-1)!;
  expect(first.events.some((event) => event.sequence === last.sequence)).toBe(false);
  expect((await control.waitForEvent((event) => event.sequence === last.sequence, { timeoutMs: 2_000 })).sequence).toBe(last.sequence);
  expect((await control.waitForEvent(last.type, { validationId: last.entity_validation_id, timeoutMs: 2_000 })).type).toBe(last.type);
});

test('one item larger than the whole budget still comes, alone on its page', async () => {
  const tiny = await startTestServer({ clock: 'instant', allowHttpWebhooks: true, maxPageBytes: 1024 });
  try {
    expect((await tiny.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, auth_type: 'none' })).status).toBe(201);
    await tiny.create({ tin: HAPPY_PARTNERS, country: 'CL' });
    await tiny.runClock();
    const page = (await tiny.call('/_mock/events?limit=1000')).json<Page & { events: unknown[] }>();
    expect([page.events.length, page.cut_by_size, page.next_cursor === null]).toEqual([1, true, false]);
  } finally {
    await tiny.close();
  }
});

test('a budget outside 1 KiB to 64 MiB is refused at start, naming the flag', async () => {
  const started = startTestServer({ maxPageBytes: 10 });
  void started.then(
    (server) => server.close(),
    () => undefined,
  );
  await expect(started).rejects.toThrow(/maxPageBytes \(--max-page-bytes, BVS_MOCK_MAX_PAGE_BYTES\) must be a whole number from 1024/);
});
