import { mockParts } from '../../src/mock/create-mock';
import { createControlClient, type ControlClient } from '../../src/client';
import type { EngineEvent } from '../../src/engine';
import { startServer, type ServerOptions, type StartedServer } from '../../src/http';
import { ApiError, EntityValidation, type ApiErrorCode } from '../../src/schemas';
import { trustingFetchOptions } from '../../src/testing/trusting-dispatcher';
import { httpClient, type HttpAnswer, type HttpCall, type HttpClient } from './https-client';

/** The default organization's API key (DEFAULT_ORGANIZATION in src/schemas/config.ts). */
export const DEFAULT_API_KEY = 'test_key_default';

/** A bvs-mock listening on 127.0.0.1 over HTTPS, with a client that trusts its certificate. */
export interface TestServer {
  server: StartedServer;
  client: HttpClient;
  /** The typed control client (src/client), trusting the server's certificate. */
  control: ControlClient;
  /** Unexpected errors the server logged (each became a 500), with their request ids. */
  unexpectedErrors: string[];
  /** Shorthand of `client.request`. */
  call(target: string, call?: HttpCall): Promise<HttpAnswer>;
  /** A JSON request: the body is serialized and `Content-Type: application/json` set. */
  json(method: string, target: string, body?: unknown, headers?: Record<string, string | undefined>): Promise<HttpAnswer>;
  /** `GET` with `Authorization: Bearer <key>` (the default organization's key unless given). */
  get(target: string, key?: string): Promise<HttpAnswer>;
  /** Creates a validation (201 expected) and returns it. */
  create(body: Record<string, unknown>, options?: { key?: string; scenario?: string }): Promise<EntityValidation>;
  /** `POST /_mock/clock/run`. */
  runClock(): Promise<void>;
  /** `POST /_mock/clock/advance { seconds }`. */
  advance(seconds: number): Promise<void>;
  /** `POST /oauth/token` with a form body. */
  token(fields: Record<string, string>): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** `Authorization: Bearer <token>`. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/**
 * Starts bvs-mock on a free port of 127.0.0.1 (manual clock unless told
 * otherwise). The test that starts it closes it.
 */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const unexpectedErrors: string[] = [];
  const server = await startServer({
    port: 0,
    clock: 'manual',
    logError: (requestId, error) => {
      const line = `${requestId}: ${(error as Error)?.stack ?? String(error)}`;
      unexpectedErrors.push(line);
      process.stderr.write(`bvs-mock test server: unexpected error: ${line}\n`);
    },
    ...options,
  });
  const client = httpClient({ baseUrl: server.url, ca: server.certificate });
  const trust = trustingFetchOptions(server.certificate ?? undefined);
  const control = createControlClient({ url: server.url, controlToken: options.controlToken, fetchOptions: trust });
  const call = (target: string, request?: HttpCall) => client.request(target, request);
  const json: TestServer['json'] = (method, target, body, headers = {}) =>
    call(target, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const expectOk = (answer: HttpAnswer, status: number, what: string) => {
    if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text().slice(0, 500)}`);
    return answer;
  };
  return {
    server,
    client,
    control,
    unexpectedErrors,
    call,
    json,
    get: (target, key = DEFAULT_API_KEY) => call(target, { headers: bearer(key) }),
    async create(body, { key = DEFAULT_API_KEY, scenario } = {}) {
      const answer = expectOk(await json('POST', '/api/v2/entity_validations', body, { ...bearer(key), 'x-mock-scenario': scenario }), 201, 'create');
      return EntityValidation.parse(answer.json());
    },
    async runClock() {
      await control.call('control.clock.run', { body: {} });
    },
    async advance(seconds) {
      await control.call('control.clock.advance', { body: { seconds } });
    },
    token: (fields) =>
      call('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }),
    async close() {
      client.close();
      await trust?.dispatcher.close();
      await server.close();
    },
  };
}

/** A test server a whole test file shares, with the engine's events since the last reset. */
export interface SharedTestServer extends TestServer {
  /** Every event the engine emitted since the file's last reset (emptied by each reset). */
  readonly events: EngineEvent[];
}

/**
 * Starts one test server for the test file (in `beforeAll`), closes it after the last test (`afterAll`)
 * and, unless `reset: false`, resets it before each test (`POST /_mock/reset`, which must answer 200)
 * and empties `events`. Call it at the top level of a test file (or of a `describe`); use the result inside
 * tests and hooks. Pass `options` as a function when they need something a `beforeAll` registered
 * earlier made, such as a receiver's URL.
 *
 * @example
 * const t = useTestServer({ config: CONFIG });
 * test('creates', async () => { await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }); });
 */
export function useTestServer(options: ServerOptions | (() => ServerOptions) = {}, { reset = true }: { reset?: boolean } = {}): SharedTestServer {
  let current: TestServer | undefined;
  const events: EngineEvent[] = [];
  beforeAll(async () => {
    current = await startTestServer(typeof options === 'function' ? options() : options);
    mockParts(current.server).world.engine.subscribe((event) => events.push(event));
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  if (reset) {
    beforeEach(async () => {
      await live().control.call('control.reset');
      events.length = 0;
    });
  }
  const live = (): TestServer => {
    if (current === undefined) throw new Error('useTestServer: the server starts in beforeAll and stops in afterAll; use it inside tests and hooks');
    return current;
  };
  return {
    get server() {
      return live().server;
    },
    get client() {
      return live().client;
    },
    get control() {
      return live().control;
    },
    get unexpectedErrors() {
      return live().unexpectedErrors;
    },
    events,
    call: (target, call) => live().call(target, call),
    json: (method, target, body, headers) => live().json(method, target, body, headers),
    get: (target, key) => live().get(target, key),
    create: (body, options) => live().create(body, options),
    runClock: () => live().runClock(),
    advance: (seconds) => live().advance(seconds),
    token: (fields) => live().token(fields),
    close: () => live().close(),
  };
}

/**
 * Checks an error answer: its status, its code, the one error shape (the zod
 * `ApiError`), and that `request_id` is the `x-request-id` header.
 */
export function expectApiError(answer: HttpAnswer, status: number, code: ApiErrorCode): ApiError['error'] {
  const parsed = ApiError.safeParse(safeJson(answer));
  if (!parsed.success) throw new Error(`expected the error shape, got ${answer.status} ${answer.text().slice(0, 500)}: ${parsed.error.message}`);
  const { error } = parsed.data;
  expect({ status: answer.status, code: error.code }).toEqual({ status, code });
  expect(error.status).toBe(status);
  expect(answer.headers['x-request-id']).toBe(error.request_id);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  return error;
}

function safeJson(answer: HttpAnswer): unknown {
  try {
    return answer.json();
  } catch {
    return undefined;
  }
}
