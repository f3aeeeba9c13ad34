import { createHash, timingSafeEqual } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ApiCore } from '../api/api-core';
import { JSON_CONTENT_TYPE, jsonResponse, type CoreRequest, type CoreResponse } from '../api/core-types';
import { problems } from '../api/api-problem';
import { toolDashboard } from '../api/routes/dashboard-page-routes';
import { DRIFT_PATH } from '../api/routes/drift-route';
import { routeOf, serviceRouter } from './route-of';
import { checkExchange } from './check-exchange';
import { DriftLog } from './drift-log';
import { maskedBody, maskValue, withoutCredentials, type Exchange } from './exchange';
import { HOP_BY_HOP_HEADERS } from '../delivery/hop-by-hop';

/** The largest request body the proxy forwards: the API's own limit is 1 MiB; the upstream says what it takes. */
const PROXY_BODY_LIMIT = 16 * 1024 * 1024;

/** Options of {@link createProxyCore}. */
export interface ProxyCoreOptions {
  /** The service to forward to: `https://sandbox.example.com` (a path is kept as a prefix). */
  upstream: URL;
  /** Certificates (PEM) to trust for the upstream beside the system's (`--upstream-ca`). */
  upstreamCa?: string;
  /** The proxy's own control token (`--control-token`): `GET /_mock/drift` asks for it. */
  controlToken?: string | null;
  /** An answer slower than this is a difference; default SLOW_ANSWER_MS (check-exchange.ts). */
  slowAnswerMs?: number;
  /** Called with each exchange once checked (a recording keeps them). */
  onExchange?: (exchange: Exchange) => void;
  /** Real time, for the exchanges' `startedAt`; default `Date.now`. */
  now?: () => number;
}

/** The proxy: an {@link ApiCore} the node transport serves, and the drift it found. */
export interface ProxyCore extends ApiCore {
  readonly drift: DriftLog;
}

/**
 * `bvs-mock proxy`: every request goes to the upstream with the client's own headers (its credentials included;
 * hop-by-hop headers left out) and the upstream's answer comes back unchanged. Each exchange of an API operation
 * is checked against the contract (check-exchange.ts) and its differences counted in {@link ProxyCore.drift}, which
 * `GET /_mock/drift` answers. Nothing of the answer depends on the check.
 */
export function createProxyCore(options: ProxyCoreOptions): ProxyCore {
  const router = serviceRouter();
  const drift = new DriftLog();
  // The dashboard's view of the drift, at the paths `bvs-mock serve` serves it: the service has nothing under /_mock.
  const dashboard = toolDashboard('proxy');
  const now = options.now ?? Date.now;
  let counter = 0;
  return {
    drift,
    bodyLimit: PROXY_BODY_LIMIT,
    bodyLimitFor: () => PROXY_BODY_LIMIT,
    async handle(request) {
      counter++;
      if (request.path === DRIFT_PATH && (request.method === 'GET' || request.method === 'HEAD'))
        return answerDrift(options.controlToken ?? null, request, drift);
      const page = dashboard(request);
      if (page !== null) return page;
      const startedAt = now();
      const started = process.hrtime.bigint();
      let answer: Answer;
      try {
        answer = await forward(options, request);
      } catch (error) {
        return unreachable(options.upstream, error, `prx_${counter.toString().padStart(6, '0')}`);
      }
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const route = routeOf(router, request.method, request.path);
      const requestId = answer.headers['x-request-id'] ?? `prx_${counter.toString().padStart(6, '0')}`;
      const exchange: Exchange = {
        requestId,
        operation: route?.document === undefined ? null : route.operation,
        method: request.method,
        path: request.path,
        status: answer.status,
        requestHeaders: withoutCredentials(request.headers),
        requestBody: maskedBody(request.body.toString('utf8'), request.headers['content-type']),
        answerHeaders: withoutCredentials(answer.headers),
        answerBody: textOf(answer),
        startedAt: new Date(startedAt).toISOString(),
        durationMs,
      };
      if (route?.document !== undefined) {
        // The check reads the answer as sent; the exchange a recording keeps has its credentials masked.
        drift.record(requestId, checkExchange(route, { ...exchange, answerBody: answer.body.toString('utf8') }, options.slowAnswerMs));
      }
      options.onExchange?.(exchange);
      return { status: answer.status, headers: answer.headers, body: answer.body };
    },
  };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends the request to the upstream and reads its whole answer. */
function forward(options: ProxyCoreOptions, request: CoreRequest): Promise<Answer> {
  const base = options.upstream;
  const query = request.query.toString();
  const target = new URL(`${base.pathname.replace(/\/$/, '')}${request.path}${query === '' ? '' : `?${query}`}`, base.origin);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !HOP_BY_HOP_HEADERS.has(name)) headers[name] = value;
  headers.host = target.host;
  if (request.body.length > 0) headers['content-length'] = String(request.body.length);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = send(target, { method: request.method, headers, ...(options.upstreamCa === undefined ? {} : { ca: options.upstreamCa }) }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 502, headers: answerHeaders(incoming.headers), body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

function answerHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The answer's body as a recording keeps it: JSON with credentials masked, other text as is, bytes by their size. */
function textOf(answer: Answer): string {
  const type = answer.headers['content-type'] ?? '';
  if (/json/i.test(type)) {
    try {
      return JSON.stringify(maskValue(JSON.parse(answer.body.toString('utf8'))));
    } catch {
      return answer.body.toString('utf8');
    }
  }
  return /^text\/|xml/i.test(type) ? answer.body.toString('utf8') : `(${answer.body.length} bytes of ${type || 'unknown type'})`;
}

function answerDrift(controlToken: string | null, request: CoreRequest, drift: DriftLog): CoreResponse {
  if (controlToken !== null) {
    const given = /^Bearer (\S+)$/i.exec(request.headers.authorization?.trim() ?? '')?.[1] ?? '';
    const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
    if (!timingSafeEqual(digest(given), digest(controlToken))) return problems.controlTokenRequired().toResponse('prx_drift');
  }
  const answer = jsonResponse(200, drift.answer());
  return request.method === 'HEAD' ? { ...answer, body: '', headers: { 'content-type': JSON_CONTENT_TYPE } } : answer;
}

/**
 * The upstream did not answer (refused, reset, a certificate not trusted): 502 in the API's error shape, with the
 * proxy's own code `upstream_unreachable`, which no answer of the service carries.
 */
function unreachable(upstream: URL, error: unknown, requestId: string): CoreResponse {
  const reason = (error as { code?: string; message?: string }).code ?? (error as Error).message ?? String(error);
  const message = `bvs-mock proxy could not reach the upstream ${upstream.origin} (${reason}). Check --upstream, and --upstream-ca for a certificate your system does not trust.`;
  return jsonResponse(502, { error: { code: 'upstream_unreachable', message, status: 502, request_id: requestId, issues: [] } }, { 'x-request-id': requestId });
}
