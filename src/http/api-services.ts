import type { ChangeFeed } from './change-feed';
import type { Pacer } from './pacer';
import type { EmittedJournal } from './emitted-journal';
import type { RunOutcome, SimulatedClock, SystemTime } from '../clock';
import type { OrganizationRegistry } from '../config';
import type { Engine } from '../engine';
import type { ScenarioLibrary } from '../engine/scenarios';
import type { Deliveries } from '../delivery/deliveries';
import type { WebhookEndpointStore } from '../delivery/webhook-endpoint-store';
import type { FaultPlan } from '../faults/fault-plan';
import type { UrlSigner } from '../reports/url-signer';
import type { AccessTokens } from './access-tokens';
import type { BrowserGuard } from './browser-guard';
import type { AnswerCache } from './answer-cache';
import type { RequestJournal } from './request-journal';
import type { ReceiverCheckStore } from '../probes/receiver-check-store';
import type { ClientObserver } from '../faults/client-observer';
import type { JournalEntry } from '../schemas';

/** Options of {@link ApiServices.drain}. */
export interface DrainOptions {
  /** Real milliseconds to wait at most; default: until nothing is scheduled or in flight, however long. */
  maxWaitMs?: number;
}

/** Largest request body accepted (docs/fidelity.md row 26). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Everything the API's routes use; made once by `createMock`. */
export interface ApiServices {
  engine: Engine;
  clock: SimulatedClock;
  /** The machine's wall clock (`MockOptions.wallClock`): request times for the client observer, injected latency. */
  wallClock: SystemTime;
  registry: OrganizationRegistry;
  tokens: AccessTokens;
  journal: RequestJournal;
  scenarios: ScenarioLibrary;
  signer: UrlSigner;
  endpoints: WebhookEndpointStore;
  deliveries: Deliveries;
  /** How many events of each type the engine emitted since the last reset (the contract report). */
  emittedEvents: Map<string, number>;
  /** Receiver checks run through the control API since the last reset. */
  receiverChecks: ReceiverCheckStore;
  /** What clients did after injected API faults (the contract report's client behaviour). */
  observer: ClientObserver;
  /** How probes reach receivers, as deliveries do (`--insecure-webhook-tls`, the delivery timeout). */
  probeTransport: { timeoutMs: number; insecureTls: boolean };
  /** The events emitted since the last reset, without bodies (`GET /_mock/emitted`). */
  emitted: EmittedJournal;
  /** Notices of change for `GET /_mock/stream` (the dashboard's live updates). */
  changes: ChangeFeed;
  faults: FaultPlan;
  /** Accept plain-http legacy `webhook_url`s (`--allow-http-webhooks`), for local receivers. */
  allowHttpWebhooks: boolean;
  /** Refuse requests that break the contract in tolerable ways (unknown fields), instead of recording them. */
  strict: boolean;
  /** Answer plain-HTTP requests with `https_required` (spec §5.1); off with `--http`. */
  requireHttps: boolean;
  bodyLimit: number;
  /** Heavy requests (`Route.paced`) take turns through it, one at a time with a rest after each. */
  pacer: Pacer;
  /** Bytes of JSON the items of one control list page take at most (`--max-page-bytes`, DEFAULT_MAX_PAGE_BYTES in page-query.ts). */
  maxPageBytes: number;
  /** The bearer token the control API asks for (`--control-token`); null: the control API is open. */
  controlToken: string | null;
  /** The Host and Origin checks that keep web pages from driving bvs-mock (docs/fidelity.md rows 103, 104). */
  browserGuard: BrowserGuard;
  /** The certificate the server presents (PEM), for `GET /_mock/certificate`; null over plain HTTP and in-process. */
  certificate: string | null;
  /** Called after every request, API and control (`bvs-mock serve`'s request log); `control` says which. */
  onRequest?: (entry: JournalEntry, control: boolean) => void;
  /**
   * Moves the clock `ms` forward and answers how many timers fired; a manual clock moves instant by
   * instant, waiting for the deliveries each instant starts (docs/fidelity.md row 75).
   */
  advance(ms: number): Promise<number>;
  /**
   * Runs the clock and waits for deliveries until nothing is left, or for at most `maxWaitMs` real
   * milliseconds (`POST /_mock/clock/run`, docs/fidelity.md row 98); `settled` says which came first.
   */
  drain(options?: DrainOptions): Promise<RunOutcome>;
  /** Real milliseconds `POST /_mock/clock/run` waits at most when the call does not say (`--max-run-wait`). */
  maxRunWaitMs: number;
  /** Empties every state and moves the clock back to its start (`POST /_mock/reset`). */
  reset(): void;
  /** Serialized answers of pure reads (read-route), this mock's own. */
  answers: AnswerCache;
  /** This instance's name on its own deliveries: a request carrying it is a delivery loop (`DELIVERY_ORIGIN_HEADER`). */
  origin: string;
  /** Where unexpected errors are written, with the request id. */
  logError(requestId: string, error: unknown): void;
}
