import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** An answer as a test reads it: status, headers (lower-case names) and the raw body. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON (throws with the text when it is not JSON). */
  json<T = unknown>(): T;
}

/** One request: method (default GET), headers and body. */
export interface HttpCall {
  method?: string;
  /** Undefined values are left out, so a table can switch a header off. */
  headers?: Record<string, string | undefined>;
  body?: string | Buffer;
}

/** A client bound to one server on loopback. */
export interface HttpClient {
  /** `https://127.0.0.1:PORT` (or `http://` for a plain server). */
  readonly baseUrl: string;
  /** Sends `call` to `target`: a path (`/_mock/health`) or an absolute URL on the same server (a pre-signed URL). */
  request(target: string, call?: HttpCall): Promise<HttpAnswer>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** Options of {@link httpClient}. */
export interface HttpClientOptions {
  /** Base URL of the server, `https://127.0.0.1:PORT`. */
  baseUrl: string;
  /**
   * The PEM certificate to trust (the server's self-signed one): TLS is verified
   * for real against it, including the 127.0.0.1 subject alternative name.
   * Null for a plain-HTTP server.
   */
  ca: string | null;
}

/**
 * A tiny HTTP(S) client for tests over loopback. Node's built-in `fetch` cannot
 * trust a custom CA without undici's Agent, so this uses `node:https` with
 * `ca`: no `rejectUnauthorized: false` anywhere. Only 127.0.0.1 is reachable.
 *
 * @example
 * const client = httpClient({ baseUrl: server.url, ca: server.certificate });
 * const answer = await client.request('/_mock/health');
 * expect(answer.status).toBe(200);
 * client.close();
 */
export function httpClient(options: HttpClientOptions): HttpClient {
  const base = new URL(options.baseUrl);
  const secure = base.protocol === 'https:';
  if (secure && options.ca === null) throw new Error(`httpClient: ${options.baseUrl} is HTTPS, so give the certificate to trust (ca)`);
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 16, ca: options.ca ?? undefined }) : new HttpAgent({ keepAlive: true, maxSockets: 16 });
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    request(target, call = {}) {
      const url = new URL(target, base);
      if (url.host !== base.host || url.protocol !== base.protocol)
        throw new Error(`httpClient: ${target} is not on ${base.origin}; tests only call the server they started`);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(call.headers ?? {})) if (value !== undefined) headers[name] = value;
      if (call.body !== undefined) headers['content-length'] = String(Buffer.byteLength(call.body));
      const send = secure ? httpsRequest : httpRequest;
      return new Promise<HttpAnswer>((resolve, reject) => {
        const outgoing = send(
          {
            host: url.hostname,
            port: url.port,
            path: `${url.pathname}${url.search}`,
            method: call.method ?? 'GET',
            headers,
            agent,
            ...(secure ? { ca: options.ca ?? undefined } : {}),
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('end', () => resolve(answer(response.statusCode ?? 0, response.headers, Buffer.concat(chunks))));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(call.body);
      });
    },
    close: () => agent.destroy(),
  };
}

function answer(status: number, headers: IncomingHttpHeaders, body: Buffer): HttpAnswer {
  return {
    status,
    headers,
    body,
    text: () => body.toString('utf8'),
    json<T>() {
      try {
        return JSON.parse(body.toString('utf8')) as T;
      } catch {
        throw new Error(`expected a JSON body, got ${status} ${JSON.stringify(body.toString('utf8').slice(0, 300))}`);
      }
    },
  };
}
