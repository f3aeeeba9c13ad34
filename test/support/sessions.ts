import { SessionAnswer } from '../../src/schemas';
import { startTestServer, type TestServer } from './api-test-server';

/**
 * Test servers that close after each test, and sessions made on them: what a test file of sessions starts with.
 *
 * @example
 * const { serve } = serversClosedAfterEach();
 * const t = await serve({ maxSessions: 2 });
 * const made = await makeSession(t, { label: 'suite-a' });
 */
export function serversClosedAfterEach(): { serve(options?: Parameters<typeof startTestServer>[0]): Promise<TestServer> } {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  return {
    async serve(options = {}) {
      const t = await startTestServer(options);
      servers.push(t);
      return t;
    },
  };
}

/** `POST /_mock/sessions` with `body`, its `Location` the session's; a refusal throws with its answer. */
export async function makeSession(t: TestServer, body: Record<string, unknown> = {}): Promise<SessionAnswer> {
  const made = await t.json('POST', '/_mock/sessions', body);
  if (made.status !== 201) throw new Error(`POST /_mock/sessions: ${made.status} ${made.text()}`);
  expect(made.headers.location).toBe(`/_mock/sessions/${made.json<SessionAnswer>().id}`);
  return SessionAnswer.parse(made.json());
}
