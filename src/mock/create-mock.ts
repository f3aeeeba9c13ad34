import { randomBytes } from 'node:crypto';
import { DEFAULT_MAX_RUN_WAIT_MS, MAX_RUN_WAIT_MS, type ClockMode, type RunOutcome, type StartTime } from '../clock';
import { resolveReadings, type BvsMockConfig, type JournalEntry } from '../schemas';
import type { DeliveriesOptions } from '../delivery/deliveries';
import type { EventSink } from '../engine';
import type { ContractReport } from '../schemas';
import { contractReportOf } from '../api/routes/report-route';
import type { AllowedHostsOption } from '../api/allowed-hosts';
import { BrowserGuard } from '../api/browser-guard';
import { createApiCore, type ApiCore } from '../api/api-core';
import { DEFAULT_BODY_LIMIT, type ServerSettings } from '../api/server-settings';
import { DEFAULT_MAX_PAGE_BYTES, PAGE_BYTES_RANGE } from '../api/page-query';
import { Pacer } from '../api/pacer';
import { documentTexts } from '../openapi/document-texts';
import type { TokenClock } from '../world/access-tokens';
import { systemTime, type SystemTime } from '../wall';
import { DEFAULT_MAX_STREAM_READERS, MAX_STREAM_READERS_LIMIT } from '../world/change-feed';
import { createWorld, type DrainOptions, type RetentionOptions, type World } from '../world/world';
import { readServerState } from './server-state';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TTL_S, MAX_SESSION_TTL_S, MAX_SESSIONS_LIMIT, Sessions } from './sessions';

export type { DrainOptions, RetentionOptions } from '../world/world';

/** Options of {@link createMock}. Every field has a default. */
export interface MockOptions {
  /** Organizations, credentials, settings, endpoints; default: the embedded default organization. */
  config?: BvsMockConfig;
  /** Directories of scenario files added to the built-in library. */
  scenarioDirs?: string[];
  /**
   * Seed of ids and payloads: the same seed, scenarios and requests give byte-identical payloads. Default: one drawn
   * at random at start (`GET /_mock/health` and the start block report it, so a run can be replayed; docs/fidelity.md row 113).
   * Given explicitly, it also fixes the key of pre-signed URLs (so URLs are byte-identical too, and
   * forgeable by whoever knows the seed); left out, that key is random per start (docs/fidelity.md).
   */
  seed?: number;
  /**
   * Locks the control API (`/_mock/*` except `GET /_mock/health`, the control API's document, pre-signed files and the recipient page):
   * every call must send `Authorization: Bearer <controlToken>` (`--control-token`). Default: open.
   */
  controlToken?: string;
  clock?: ClockMode;
  /**
   * When the simulated clock starts (`--start-time`): `'now'`, an ISO 8601 string, epoch ms or a Date;
   * `POST /_mock/reset` returns here. Default: the wall clock at start, rounded down to the whole second;
   * with an explicit `seed`, the fixed 2026-01-15T10:00:00.000Z so the same seed gives the same bytes
   * (docs/fidelity.md rows 72, 73).
   */
  startTime?: StartTime;
  /** Speed factor of the realtime clock. */
  speed?: number;
  /**
   * Which clock OAuth access tokens live on (`--token-clock`): `'simulated'` (default: advancing the
   * clock two hours expires them, spec §5.4) or `'wall'` (they live two real hours, so a token the client
   * cached by its own clock survives a drain that moved simulated time hours ahead; docs/fidelity.md row 86).
   */
  tokenClock?: TokenClock;
  /**
   * The machine's wall clock, for what is about real time: the realtime clock, a start time of `'now'`,
   * `tokenClock: 'wall'`, the request times the contract report's client behaviour grades, and `api_latency`
   * faults. Default the real one (`Date.now`, real timers); a test injects its own to drive these without
   * waiting. Either member may be left out.
   */
  wallClock?: Partial<SystemTime>;
  /**
   * Tolerance mode (`--tolerance`): every delivery and API answer carries fields and, where the spec lists only the values
   * seen, values the spec does not list, so a client's reader proves tolerant (docs/fidelity.md row 89).
   */
  tolerance?: boolean;
  /** Refuse unknown fields instead of recording them (`--strict`). */
  strict?: boolean;
  /**
   * Readings played where the spec contradicts itself (`--reading NAME=VALUE`; `bvs-mock readings` lists them), by name,
   * over the configuration's `readings:`; each left out is bvs-mock's default. Sessions take them unless they give
   * their own. An unknown name or value is a start-up error naming the known ones.
   */
  readings?: Readonly<Record<string, string>>;
  /** Answer plain-HTTP requests with `https_required`. Default true. */
  requireHttps?: boolean;
  /** Public base address used in pre-signed and recipient URLs; its host is answered for (`allowedHosts`). */
  publicUrl?: string;
  /**
   * Host names answered for besides IP addresses, `localhost`, `*.localhost`, one-label names (`bvs`) and
   * `*.internal` names (`--allowed-hosts`): a request with another `Host` answers 421 `host_not_allowed`, so
   * a web page cannot reach bvs-mock by rebinding its own name (docs/fidelity.md row 104). `.example.com`
   * allows a domain and every name under it; `'all'` answers any Host. `startServer` adds its listening host
   * and `tlsHostnames`; requests msw intercepts in-process are never checked.
   */
  allowedHosts?: AllowedHostsOption;
  bodyLimit?: number;
  /** Adds an endpoint named `cli` to the default organization, subscribed to every event (`--webhook-url`). */
  webhookUrl?: string;
  /** With `webhookUrl`: authenticate it with this secret (`Authorization: Bearer <secret>`); default none. */
  webhookSecret?: string;
  /** Accept plain-http legacy `webhook_url`s (`--allow-http-webhooks`). */
  allowHttpWebhooks?: boolean;
  /** Accept receivers' self-signed certificates (`--insecure-webhook-tls`). */
  insecureWebhookTls?: boolean;
  /** Real milliseconds a receiver has to answer (default 10 s). */
  deliveryTimeoutMs?: number;
  /** Real milliseconds the instant clock waits for a receiver before going on without it (default 1 s). */
  slowReceiverMs?: number;
  /**
   * Attempts in a row without an answer within `deliveryTimeoutMs` after which a receiver is suspended:
   * one probe every two timeouts still goes, the others are recorded without being sent (default 5; docs/fidelity.md row 100).
   */
  suspendReceiverAfterTimeouts?: number;
  /**
   * Real milliseconds `POST /_mock/clock/run` waits at most before it answers with what is still pending
   * (`--max-run-wait`; default {@link DEFAULT_MAX_RUN_WAIT_MS}; a call's `max_wait_seconds` wins; docs/fidelity.md row 98).
   */
  maxRunWaitMs?: number;
  /** How much state is kept (docs/fidelity.md row 59). */
  retention?: RetentionOptions;
  /**
   * Readers of `GET /_mock/stream` (dashboard tabs, `control.onChange`) served at once (`--max-stream-readers`);
   * one more is answered 503 `service_unavailable` with Retry-After. Default {@link DEFAULT_MAX_STREAM_READERS}
   * (docs/fidelity.md row 101).
   */
  maxStreamReaders?: number;
  /**
   * Bytes of JSON the items of one control list page take at most (`--max-page-bytes`): a page ends before the
   * item that would pass it, with `cut_by_size: true`, and its `next_cursor` goes on from there. Default
   * {@link DEFAULT_MAX_PAGE_BYTES} (docs/fidelity.md row 102).
   */
  maxPageBytes?: number;
  /**
   * Sessions held at once besides the default one (`--max-sessions`, `POST /_mock/sessions`); one more is refused
   * with `session_limit_reached`. Default {@link DEFAULT_MAX_SESSIONS}.
   */
  maxSessions?: number;
  /**
   * Real milliseconds without a request after which a session ends (`--session-ttl`, in seconds there).
   * Default {@link DEFAULT_SESSION_TTL_S} seconds.
   */
  sessionTtlMs?: number;
  /**
   * A server's saved state (`--state-file`; `serverStateOf`): the default session and every other session go on
   * where they stood when it was saved, their ids and credentials kept. Its worlds' seeds, clocks and organizations
   * win over `seed`, `clock`, `startTime` and `config`. A state that cannot be restored throws, and nothing of it is built.
   */
  state?: unknown;
  /** Called after every delivery attempt. */
  onDeliveryAttempt?: DeliveriesOptions['onAttempt'];
  /** Called after every request, API and control, with its journal entry (`bvs-mock serve` logs them); `control` says which. */
  onRequest?: (entry: JournalEntry, control: boolean) => void;
  /** Where unexpected errors go; default stderr. */
  logError?: (requestId: string, error: unknown) => void;
}

/**
 * bvs-mock before any transport: the API core over one simulated world, and the few levers embedding code
 * needs. Its parts (the world, the server's settings) are bvs-mock's own; `mockParts` reaches them inside
 * bvs-mock and its tests, and they are not part of the package's surface.
 */
export interface Mock {
  /** The transport-free API: one request in, one response out (what the node server, msw and express call). */
  core: ApiCore;
  /**
   * Plays everything: runs the clock (manual mode) or waits for it (instant,
   * realtime) and waits for every delivery attempt, retries included, until
   * nothing is scheduled or in flight, or until `maxWaitMs` real milliseconds
   * have passed (no bound unless given); `settled` says which came first.
   */
  drain(options?: DrainOptions): Promise<RunOutcome>;
  /** Moves simulated time `ms` forward as `POST /_mock/clock/advance` does; answers how many timers fired. */
  advance(ms: number): Promise<number>;
  /** Returns the world to its start, as `POST /_mock/reset` does. */
  reset(): void;
  /** Simulated time now. */
  now(): Date;
  /** Calls `sink` with every event the world emits from now on (type, resource, validation, instant, body); returns the function that stops it. */
  onEvent(sink: EventSink): () => void;
  /** The contract report so far, as `GET /_mock/report` answers it. */
  report(): ContractReport;
  /** Ends the world: cancels pending deliveries and stops the clock's real timers. */
  dispose(): void;
}

/** What bvs-mock's own code reaches behind a {@link Mock}: what the routes use. */
export interface MockParts {
  /** The simulated world the API acts on. */
  world: World;
  /** The server's settings: limits, the control token, the Host and Origin checks, the documents. */
  server: ServerSettings;
  /** The sessions made at run time (`/_mock/sessions`); the default session is {@link world}. */
  sessions: Sessions;
}

/** Where a mock keeps its parts: a symbol, so they stay off the mock's type and out of `JSON.stringify`. */
const PARTS = Symbol('bvs-mock parts');

/** The parts of a mock made by {@link createMock} (or `startServer`), for bvs-mock's own code and tests. */
export function mockParts(mock: Mock): MockParts {
  const parts = (mock as Mock & { [PARTS]?: MockParts })[PARTS];
  if (parts === undefined) throw new Error('bvs-mock: mockParts takes a mock made by createMock or startServer');
  return parts;
}

/**
 * Assembles bvs-mock: clock, organizations, scenario library, engine, endpoint
 * store, tokens, journal and the API core. Transports (node server, msw,
 * express) are added around it. Bad configuration or scenario files throw
 * here, at start, never at request time.
 */
export function createMock(options: MockOptions = {}): Mock {
  if (options.controlToken !== undefined && !/^[\x21-\x7e]+$/.test(options.controlToken)) {
    throw new Error(
      'bvs-mock: the control token (--control-token, BVS_MOCK_CONTROL_TOKEN) must be printable characters without spaces, like a long random string; it is sent as Authorization: Bearer <token>',
    );
  }
  if (options.tokenClock !== undefined && options.tokenClock !== 'simulated' && options.tokenClock !== 'wall') {
    throw new Error(`bvs-mock: tokenClock (--token-clock, BVS_MOCK_TOKEN_CLOCK) must be "simulated" or "wall", got ${JSON.stringify(options.tokenClock)}`);
  }
  const maxStreamReaders = options.maxStreamReaders ?? DEFAULT_MAX_STREAM_READERS;
  if (!Number.isInteger(maxStreamReaders) || maxStreamReaders < 1 || maxStreamReaders > MAX_STREAM_READERS_LIMIT) {
    throw new Error(
      `bvs-mock: maxStreamReaders (--max-stream-readers, BVS_MOCK_MAX_STREAM_READERS) must be a whole number from 1 to ${MAX_STREAM_READERS_LIMIT}, got ${JSON.stringify(options.maxStreamReaders)}; leave it out for ${DEFAULT_MAX_STREAM_READERS}`,
    );
  }
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
  if (!Number.isInteger(maxPageBytes) || maxPageBytes < PAGE_BYTES_RANGE.min || maxPageBytes > PAGE_BYTES_RANGE.max) {
    throw new Error(
      `bvs-mock: maxPageBytes (--max-page-bytes, BVS_MOCK_MAX_PAGE_BYTES) must be a whole number from ${PAGE_BYTES_RANGE.min} to ${PAGE_BYTES_RANGE.max} (64 MiB), got ${JSON.stringify(options.maxPageBytes)}; leave it out for ${DEFAULT_MAX_PAGE_BYTES} (1 MiB)`,
    );
  }
  const logError =
    options.logError ??
    ((requestId: string, error: unknown) => process.stderr.write(`bvs-mock: ${requestId}: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`));
  const maxRunWaitMs = checkedMaxRunWait(options.maxRunWaitMs);
  // Names this instance on its own deliveries, so a delivery pointed at bvs-mock itself is refused, not looped.
  const origin = randomBytes(12).toString('hex');
  const wallClock: SystemTime = { ...systemTime, ...options.wallClock };
  const maxSessions = checkedWhole('maxSessions (--max-sessions, BVS_MOCK_MAX_SESSIONS)', options.maxSessions ?? DEFAULT_MAX_SESSIONS, 1, MAX_SESSIONS_LIMIT);
  const sessionTtlMs = checkedWhole(
    'sessionTtlMs (--session-ttl, BVS_MOCK_SESSION_TTL, in seconds there)',
    options.sessionTtlMs ?? DEFAULT_SESSION_TTL_S * 1000,
    1000,
    MAX_SESSION_TTL_S * 1000,
  );
  const saved = options.state === undefined ? undefined : readServerState(options.state);
  const readings = resolveReadings(options.config?.readings, options.readings);
  const world = createWorld({ ...options, readings, wallClock, maxStreamReaders, origin, logError, snapshot: saved?.default });
  const { config: _config, seed: _seed, webhookUrl: _webhookUrl, webhookSecret: _webhookSecret, state: _state, ...shared } = options;
  const sessions = new Sessions({
    defaultWorld: world,
    base: { ...shared, readings, wallClock, maxStreamReaders, origin, logError },
    maxSessions,
    ttlMs: sessionTtlMs,
  });
  if (saved !== undefined) {
    try {
      sessions.restore(saved.sessions);
    } catch (error) {
      world.dispose();
      throw new Error(`bvs-mock: this state file cannot be restored: ${(error as Error).message}; nothing of it was loaded`, { cause: error });
    }
  }
  const server: ServerSettings = {
    probeTransport: { timeoutMs: options.deliveryTimeoutMs ?? 10_000, insecureTls: options.insecureWebhookTls ?? false },
    allowHttpWebhooks: options.allowHttpWebhooks ?? false,
    requireHttps: options.requireHttps ?? true,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    maxPageBytes,
    pacer: new Pacer(),
    controlToken: options.controlToken ?? null,
    browserGuard: new BrowserGuard({ allowedHosts: options.allowedHosts, publicUrl: options.publicUrl }),
    certificate: null,
    onRequest: options.onRequest,
    maxRunWaitMs,
    origin,
    documents: documentTexts(),
    logError,
  };
  const mock: Mock = {
    core: createApiCore(server, sessions),
    drain: world.drain,
    advance: world.advance,
    reset: world.reset,
    now: () => world.clock.nowDate(),
    onEvent: (sink) => world.engine.subscribe(sink),
    report: () => contractReportOf(world),
    dispose: () => {
      sessions.dispose();
      world.dispose();
    },
  };
  Object.defineProperty(mock, PARTS, { value: { world, server, sessions } satisfies MockParts, enumerable: true });
  return mock;
}

/** A whole number from `min` to `max`, or a start-up error naming the option. */
function checkedWhole(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`bvs-mock: ${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return value;
}

/** The bound of `POST /_mock/clock/run` (docs/fidelity.md row 98): a whole number of real milliseconds above 0. */
function checkedMaxRunWait(ms: number | undefined): number {
  if (ms === undefined) return DEFAULT_MAX_RUN_WAIT_MS;
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_RUN_WAIT_MS)
    throw new Error(
      `bvs-mock: maxRunWaitMs (--max-run-wait, BVS_MOCK_MAX_RUN_WAIT) must be whole milliseconds from 1 to ${MAX_RUN_WAIT_MS} (a day), got ${JSON.stringify(ms)}`,
    );
  return ms;
}
