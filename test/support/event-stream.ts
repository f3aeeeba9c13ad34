import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createEventParser, type ServerSentEvent } from '../../src/client';

/** An open `text/event-stream` answer: its head, what it has sent so far, and a way to hang up. */
export interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Everything received so far, as text. */
  received(): string;
  /** The events received so far, read by the one event parser of src/client. */
  events(): ServerSentEvent[];
  /** Resolves once the received text matches, or rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream or the connection closes. */
  ended: Promise<void>;
  /** Hangs up, as a closed tab does. */
  close(): void;
}

/**
 * Opens `GET path` on a bvs-mock and resolves once the head and the first chunk arrived, without
 * waiting for an end that never comes (`GET /_mock/stream`).
 */
export function openEventStream(baseUrl: string, path: string, options: { ca?: string | null; headers?: Record<string, string> } = {}): Promise<OpenStream> {
  const url = new URL(path, baseUrl);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, { headers: options.headers ?? {}, ...(options.ca ? { ca: options.ca } : {}) }, (response) => {
      let text = '';
      const events: ServerSentEvent[] = [];
      const parser = createEventParser({ onEvent: (event) => events.push(event) });
      const waiters: Array<() => void> = [];
      response.setEncoding('utf8');
      const ended = new Promise<void>((done) => {
        response.once('end', done);
        response.once('close', done);
      });
      response.on('data', (chunk: string) => {
        const first = text === '';
        text += chunk;
        parser.feed(chunk);
        for (const waiter of waiters.splice(0)) waiter();
        if (first) {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            received: () => text,
            events: () => events,
            ended,
            waitFor: (pattern, timeoutMs = 5_000) =>
              new Promise<void>((done, fail) => {
                const timer = setTimeout(() => fail(new Error(`no ${pattern} in the stream after ${timeoutMs} ms; received: ${text}`)), timeoutMs);
                const check = () => {
                  if (pattern.test(text)) {
                    clearTimeout(timer);
                    done();
                  } else waiters.push(check);
                };
                check();
              }),
            close: () => request.destroy(),
          });
        }
      });
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          received: () => text,
          events: () => events,
          ended,
          waitFor: () => Promise.reject(new Error('the stream ended')),
          close: () => request.destroy(),
        }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}
