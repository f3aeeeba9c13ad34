import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { lookup } from 'node:dns';
import { isIP, type BlockList, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterRealTime } from '../wall';

/** The outcome of one POST: the answer, or why there was none. */
export interface PostResult {
  /** Status code of the answer's head; null when no answer came. With an `error`, the answer broke off after its head. */
  status: number | null;
  /** The first `BODY_EXCERPT` characters of the answer. */
  body: string;
  durationMs: number;
  /**
   * `connection_refused`, `connection_reset`, `timeout`, `tls_error: ...`, `dns_error`, `address_refused`, or another
   * code; with a status, `answer_truncated: ...` (the answer ended before the end its head announced) or `timeout`
   * (the rest of the answer did not come in time).
   */
  error: string | null;
  /** The request headers sent, secrets masked (src/delivery/sent-headers.ts); absent when nothing was sent. */
  requestHeaders?: Readonly<Record<string, string>>;
}

/**
 * Whether an attempt was acknowledged: a 2xx answer that arrived whole. A truncated answer is not an answer (spec §6
 * Subscription and delivery, rule 4: answer HTTP 200), whatever its status line said, so it is retried (rule 2;
 * docs/fidelity.md row 107).
 */
export function acknowledged(result: Pick<PostResult, 'status' | 'error'>): boolean {
  return result.status !== null && result.status >= 200 && result.status <= 299 && result.error === null;
}

/** Options of {@link post}. */
export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Real milliseconds before the attempt is abandoned as `timeout`. */
  timeoutMs: number;
  /** Accept self-signed or otherwise unverifiable receiver certificates (`--insecure-webhook-tls`). */
  insecureTls: boolean;
  /** Ends the request at once (`POST /_mock/reset` ends every attempt of the old state); the result's error is `cancelled`. */
  signal?: AbortSignal;
  /**
   * Addresses the request must not connect to, whether the URL names them or a host name resolves to them; such a
   * request ends with the error `address_refused` and nothing is sent.
   */
  refusedAddresses?: BlockList;
}

/** How much of an answer is kept in an attempt record. */
const BODY_EXCERPT = 1000;

/** Bytes of an answer kept to make its excerpt: enough for `BODY_EXCERPT` characters of UTF-8 (at most 4 bytes each). */
const EXCERPT_BYTES = BODY_EXCERPT * 4;

const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 64 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }),
  insecure: new HttpsAgent({ keepAlive: true, maxSockets: 64, rejectUnauthorized: false }),
};

/**
 * POSTs a body and never throws: every failure (refused, reset, timeout, TLS)
 * comes back as a result, so a receiver that is down, slow or answering garbage
 * becomes an attempt record and nothing is lost.
 */
export function post(options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return Promise.resolve({ status: null, body: '', durationMs: 0, error: 'invalid_url' });
  }
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  const agent = secure ? (options.insecureTls ? agents.insecure : agents.https) : agents.http;
  const refused = options.refusedAddresses;
  // The URL's own host, when it is an address: a host name is checked once resolved, in `lookup`.
  if (refused !== undefined && isRefused(refused, url.hostname.replace(/^\[|\]$/g, '')))
    return Promise.resolve({ status: null, body: '', durationMs: 0, error: 'address_refused' });
  return new Promise((resolve) => {
    // The timeout is a timer of our own, held until the attempt ends: `AbortSignal.timeout` inside
    // `AbortSignal.any` is held only weakly by node, and once garbage collected it never fired, so an
    // attempt to a receiver that never answers waited for ever (docs/fidelity.md row 27).
    const abort = new AbortController();
    const cancelTimer = afterRealTime(options.timeoutMs, () => abort.abort(new DOMException('The delivery timeout passed', 'TimeoutError')));
    const cancelled = () => abort.abort(options.signal?.reason);
    /** Why the request was ended from here, if it was. */
    const ended = () => (options.signal?.aborted ? 'cancelled' : abort.signal.aborted ? 'timeout' : null);
    if (options.signal?.aborted === true) cancelled();
    else options.signal?.addEventListener('abort', cancelled, { once: true });
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      cancelTimer();
      options.signal?.removeEventListener('abort', cancelled);
      resolve({ ...result, durationMs: Math.round((performance.now() - started) * 1000) / 1000 });
    };
    const request = send(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body).toString() },
        signal: abort.signal,
        ...(refused === undefined ? {} : { lookup: refusingLookup(refused) }),
      },
      (response) => {
        const status = response.statusCode ?? null;
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (keptBytes >= EXCERPT_BYTES) return;
          kept.push(chunk);
          keptBytes += chunk.length;
        });
        const excerpt = () => Buffer.concat(kept).toString('utf8').slice(0, BODY_EXCERPT);
        // An answer is whole when it reached the end its head announced (Content-Length, the last chunk, or the
        // connection's close when it announced neither); node's `complete` says so.
        const settle = () =>
          finish({ status, body: excerpt(), error: response.complete ? null : (ended() ?? truncated(response.headers['content-length'], received)) });
        response.on('end', settle);
        response.on('error', settle);
        response.on('close', settle);
      },
    );
    request.on('error', (error) => finish({ status: null, body: '', error: options.signal?.aborted ? 'cancelled' : classify(error) }));
    request.end(options.body);
  });
}

/** The error of an answer that ended before its announced end. */
function truncated(contentLength: string | undefined, received: number): string {
  return contentLength !== undefined && /^\d+$/.test(contentLength)
    ? `answer_truncated: the answer ended after ${received} of the ${contentLength} bytes its Content-Length declared`
    : `answer_truncated: the connection closed after ${received} bytes, before the answer's last chunk`;
}

function isRefused(refused: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && refused.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** `dns.lookup`, failing with `address_refused` when a host name resolves to a refused address (a delivery, a receiver check's side-effect probe). */
export function refusingLookup(refused: BlockList): LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((entry) => !isRefused(refused, entry.address));
      if (allowed.length === 0 || allowed.length < addresses.length)
        return callback(Object.assign(new Error(`${hostname} resolves to a refused address`), { code: 'ADDRESS_REFUSED' }), '', 0);
      if (options.all === true) callback(null, allowed);
      else callback(null, allowed[0]!.address, allowed[0]!.family);
    });
}

function classify(error: Error & { code?: string }): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR') return 'timeout';
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection_refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection_reset';
    case 'ADDRESS_REFUSED':
      return 'address_refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'dns_error';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls_error: ${error.code} (start bvs-mock with --insecure-webhook-tls to accept this receiver's certificate)`;
    default:
      return error.message === 'socket hang up' ? 'connection_reset' : (error.code ?? error.message);
  }
}
