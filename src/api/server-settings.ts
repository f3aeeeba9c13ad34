import type { JournalEntry } from '../schemas';
import type { BrowserGuard } from './browser-guard';
import type { Pacer } from './pacer';

export type { DrainOptions } from '../world/world';

/** The text of the API's (`api`) or the control API's (`control`) OpenAPI document, as JSON or YAML. */
export type DocumentTexts = (which: 'api' | 'control', format: 'json' | 'yaml') => string;

/** Largest request body accepted (docs/fidelity.md row 26). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The server's settings the API's routes read beside their world; made by `createMock`. */
export interface ServerSettings {
  /** How probes reach receivers, as deliveries do (`--insecure-webhook-tls`, the delivery timeout). */
  probeTransport: { timeoutMs: number; insecureTls: boolean };
  /** Accept plain-http legacy `webhook_url`s (`--allow-http-webhooks`), for local receivers. */
  allowHttpWebhooks: boolean;
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
  /** Real milliseconds `POST /_mock/clock/run` waits at most when the call does not say (`--max-run-wait`). */
  maxRunWaitMs: number;
  /** This instance's name on its own deliveries: a request carrying it is a delivery loop (`DELIVERY_ORIGIN_HEADER`). */
  origin: string;
  /** The OpenAPI documents' texts (`GET /openapi.json`, `GET /_mock/openapi.yaml`), built on first use. */
  documents: DocumentTexts;
  /** Where unexpected errors are written, with the request id. */
  logError(requestId: string, error: unknown): void;
}
