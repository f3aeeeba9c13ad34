import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { afterRealTime } from '../clock';

/** The outcome of one POST: the answer, or why there was none. */
export interface PostResult {
  /** Status code; null when no answer came. */
  status: number | null;
  /** The first `BODY_EXCERPT` characters of the answer. */
  body: string;
  durationMs: number;
  /** `connection_refused`, `connection_reset`, `timeout`, `tls_error: ...`, `dns_error`, or another code. */
  error: string | null;
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
}

/** How much of an answer is kept in an attempt record. */
export const BODY_EXCERPT = 1000;

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
  return new Promise((resolve) => {
    // The timeout is a timer of our own, held until the attempt ends: `AbortSignal.timeout` inside
    // `AbortSignal.any` is held only weakly by node, and once garbage collected it never fired, so an
    // attempt to a receiver that never answers waited for ever (docs/fidelity.md row 27).
    const abort = new AbortController();
    const cancelTimer = afterRealTime(options.timeoutMs, () => abort.abort(new DOMException('The delivery timeout passed', 'TimeoutError')));
    const cancelled = () => abort.abort(options.signal?.reason);
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
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < BODY_EXCERPT) body += chunk;
        });
        response.on('end', () => finish({ status: response.statusCode ?? null, body: body.slice(0, BODY_EXCERPT), error: null }));
        response.on('error', (error) => finish({ status: response.statusCode ?? null, body: body.slice(0, BODY_EXCERPT), error: classify(error) }));
      },
    );
    request.on('error', (error) => finish({ status: null, body: '', error: options.signal?.aborted ? 'cancelled' : classify(error) }));
    request.end(options.body);
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
