// From the module itself, not the http index: bvs-mock/testing's types must not reach msw's (CommonJS consumers).
import type { ServerOptions } from '../http/start-server';
import { BvsMockControl } from './control-client';
import { currentTest } from './current-test';
import type { RequestJournalReader } from './journal';
import { labelledFetch, REMOTE_ENV, saveReport, startSession } from './remote-bvs-mock';
import { trustingFetchOptions } from './trusting-dispatcher';

/** Options of {@link startBvsMock}: the server's options, and how it is reached. */
export type StartBvsMockOptions = Omit<ServerOptions, 'port'> & {
  /**
   * `server` (default): a real bvs-mock on a free port of `host` (127.0.0.1), HTTPS unless `http: true`,
   * which a client in another process can reach too. `in-process`: no port; msw intercepts requests to
   * `baseUrl` in this process (fetch and node:http(s)), other requests pass through untouched.
   */
  transport?: 'server' | 'in-process';
  /** In-process: the base URL the client uses; default `https://bvs.test`. */
  baseUrl?: string;
  /** Server: the port; default any free one. */
  port?: number;
  /**
   * A bvs-mock already running (a process, a container; default: `BVS_MOCK_URL` when neither `url` nor `transport`
   * is given): a session of this test's own is made on it (`POST /_mock/sessions`) with the options a session takes
   * (the clock's, `seed`, `config`'s organizations, `scenarioDirs` read here and sent, `strict`, `tolerance`,
   * `readings`, `label`); an option of the server's start is refused, naming it. `stop()` ends the session.
   */
  url?: string;
  /**
   * With `url`: the certificate (PEM text or a PEM file's path) to trust; default `BVS_MOCK_CA`, else the one the
   * instance serves at `GET /_mock/certificate`, fetched once and pinned (trust on first use).
   */
  ca?: string;
  /** With `url`: the session's label (the dashboard and `GET /_mock/sessions` show it); default the test file and test. */
  label?: string;
};

/** A running bvs-mock for a test, the same for both transports. */
export interface RunningBvsMock {
  /** Its base URL: give it to the client under test. */
  url: string;
  /** The default organization's API key (`Authorization: Bearer <apiKey>`). */
  apiKey: string;
  /** The default organization's OAuth client, for `POST /oauth/token`. */
  oauthClient: { clientId: string; clientSecret: string };
  /** The default organization's legacy webhook token, or null. */
  legacyToken: string | null;
  /** The certificate (PEM) of the HTTPS server, for other clients to trust; null over HTTP and in-process. */
  certificate: string | null;
  /** `fetch` that trusts the server's certificate (in-process: the intercepted global fetch). */
  fetch: (input: string | URL, init?: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array | URLSearchParams }) => Promise<Response>;
  /** The control API, typed. */
  control: BvsMockControl;
  /** The journal of the client's requests (`control.journal`): `await mock.journal.requests({ method: 'POST', path: '/api/v2/entity_validations' })`. */
  journal: RequestJournalReader;
  /**
   * Stops it: the server closes (or msw stops intercepting) and the clock's timers end; on a running instance, the
   * session ends. First, when a suite reporter runs (`BVS_MOCK_REPORT_DIR`), its contract report is written for it.
   */
  stop(): Promise<void>;
}

/**
 * Starts bvs-mock for a test: a real server on a free port (the default), or in-process through msw.
 * Test defaults: deliveries of bvs-mock's own are never intercepted (`onUnhandledRequest: 'bypass'`),
 * and pre-signed URLs point at the URL the client uses, so they resolve.
 *
 * @example
 * const bvs = await startBvsMock({ clock: 'instant' });
 * const answer = await bvs.fetch(`${bvs.url}/api/v2/webhook_endpoints`, { headers: { authorization: `Bearer ${bvs.apiKey}` } });
 * await bvs.stop();
 */
export async function startBvsMock(options: StartBvsMockOptions = {}): Promise<RunningBvsMock> {
  const fromEnvironment = options.url === undefined && options.transport === undefined ? process.env[REMOTE_ENV.url]?.trim() || undefined : undefined;
  if (options.url !== undefined || fromEnvironment !== undefined) {
    if (options.transport !== undefined)
      throw new Error('bvs-mock: url and transport exclude each other: url makes a session on a running bvs-mock, transport starts one here');
    return startSession(options.url ?? fromEnvironment!, options, options.url === undefined ? REMOTE_ENV.url : 'the url option');
  }
  if (options.ca !== undefined)
    throw new Error('bvs-mock: the ca option is for a running bvs-mock (url or BVS_MOCK_URL); a bvs-mock started here gives its own certificate');
  const { transport = 'server', baseUrl = 'https://bvs.test', label, url: _url, ca: _ca, ...rest } = options;
  const testFile = currentTest().file;
  // Loaded here, so importing bvs-mock/testing loads neither the server nor msw.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http = require('../http') as typeof import('../http');
  if (transport === 'in-process') {
    const mock = http.createMock({ ...rest, publicUrl: rest.publicUrl ?? baseUrl, requireHttps: rest.requireHttps ?? baseUrl.startsWith('https:') });
    // bvs-mock's bundled msw (vendor/msw.js): it runs in a stock jest project too.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { vendoredMsw } = require('../http/vendored-msw') as typeof import('../http/vendored-msw');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { handlersWith } = require('../http/msw-handlers') as typeof import('../http/msw-handlers');
    const msw = vendoredMsw();
    const server = msw.setupServer(...handlersWith(msw.http, mock.core, { baseUrl, inProcess: true }));
    server.listen({ onUnhandledRequest: 'bypass' });
    const url = baseUrl.replace(/\/+$/, '');
    const control = new BvsMockControl({ url, controlToken: rest.controlToken });
    return {
      ...credentials(http.mockParts(mock).world.registry),
      url,
      certificate: null,
      fetch: labelledFetch(undefined),
      control,
      journal: control.journal,
      async stop() {
        try {
          await saveReport(control, testFile, label ?? null);
        } finally {
          server.close();
          mock.dispose();
        }
      },
    };
  }
  const server = await http.startServer({ ...rest, port: rest.port ?? 0 });
  const trusting = trustingFetch(server.certificate);
  const control = new BvsMockControl({ url: server.url, controlToken: rest.controlToken, ca: server.certificate ?? undefined });
  return {
    ...credentials(http.mockParts(server).world.registry),
    url: server.url,
    certificate: server.certificate,
    fetch: trusting.fetch,
    control,
    journal: control.journal,
    async stop() {
      try {
        await saveReport(control, testFile, label ?? null);
      } finally {
        await trusting.close();
        await server.close();
      }
    },
  };
}

function credentials(registry: import('../config').OrganizationRegistry): Pick<RunningBvsMock, 'apiKey' | 'oauthClient' | 'legacyToken'> {
  const organization = registry.get(registry.defaultId)!;
  const client = organization.oauth_clients[0];
  return {
    apiKey: organization.api_keys[0] ?? '',
    oauthClient: { clientId: client?.client_id ?? '', clientSecret: client?.client_secret ?? '' },
    legacyToken: organization.settings.legacy_webhook_token ?? null,
  };
}

/** Node's `fetch`, trusting `certificate` (PEM) for HTTPS through an undici dispatcher; closed by `close`. */
function trustingFetch(certificate: string | null): { fetch: RunningBvsMock['fetch']; close(): Promise<void> } {
  const options = trustingFetchOptions(certificate ?? undefined);
  return {
    fetch: labelledFetch(options),
    close: async () => {
      await options?.dispatcher.close();
    },
  };
}
