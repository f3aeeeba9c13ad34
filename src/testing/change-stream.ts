import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ChangeNotice } from '../http/change-feed';
import type { ControlClientOptions } from './control-client';

export type { ChangeNotice };

/**
 * Listens to `GET /_mock/stream` (the dashboard's live updates) and calls `listener` with each change
 * notice; resolves once the stream is open, with the function that hangs up, which resolves once the
 * stream has closed (await it when what follows needs the reader gone). It does not reconnect: a
 * test that outlives its bvs-mock has nothing left to hear.
 *
 * @example
 * const stop = await control.onChange((notice) => notices.push(...notice.kinds));
 * await control.run();
 * stop();
 */
export async function listenForChanges(options: ControlClientOptions, listener: (notice: ChangeNotice) => void): Promise<() => Promise<void>> {
  const url = new URL('/_mock/stream', options.url);
  const headers: Record<string, string> = options.controlToken === undefined ? {} : { authorization: `Bearer ${options.controlToken}` };
  // Hung up by a signal: over a server it closes the connection; in-process, msw passes a fetch's signal on to
  // bvs-mock, which then lets the stream go.
  const hangUp = new AbortController();
  const body = await openStream(url, headers, options.ca, hangUp.signal);
  const closed = (async () => {
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: change$/m.test(block) && data !== undefined) listener(JSON.parse(data) as ChangeNotice);
        }
      }
    } catch {
      // Hung up, or bvs-mock stopped: nothing more to hear.
    }
  })();
  return () => {
    hangUp.abort();
    return closed;
  };
}

/** The stream's body as text, once its head says 200; refused with what to check otherwise. */
async function openStream(url: URL, headers: Record<string, string>, ca: string | undefined, signal: AbortSignal): Promise<AsyncIterable<string>> {
  // A 401 is the token; anything else (503: too many readers open) says itself what to do.
  const refused = (status: number | undefined, body: string) =>
    new Error(
      status === 401
        ? `bvs-mock: GET /_mock/stream answered 401; is the control token (controlToken) right?`
        : `bvs-mock: GET /_mock/stream answered ${status}: ${messageOf(body)}`,
    );
  const unreachable = (error: Error) => new Error(`bvs-mock: cannot reach ${url.origin} for GET /_mock/stream: ${error.message}`, { cause: error });
  if (url.protocol === 'https:' && ca !== undefined) {
    // Node's fetch cannot be told to trust one certificate: node:https can.
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = httpsRequest(url, { headers, ca, signal }, resolve);
      outgoing.on('error', (error) => reject(unreachable(error)));
      outgoing.end();
    });
    if (answer.statusCode !== 200) throw refused(answer.statusCode, await textOf(answer));
    answer.setEncoding('utf8');
    return answer;
  }
  let answer: Response;
  try {
    answer = await fetch(url, { headers, signal });
  } catch (error) {
    throw unreachable(error as Error);
  }
  if (answer.status !== 200 || answer.body === null) throw refused(answer.status, await answer.text().catch(() => ''));
  return answer.body.pipeThrough(new TextDecoderStream());
}

/** The first 4 KiB of a refusal's body: an error answer is small, and nothing more is needed of it. */
const REFUSAL_BYTES = 4096;

async function textOf(answer: IncomingMessage): Promise<string> {
  let text = '';
  answer.setEncoding('utf8');
  for await (const chunk of answer) {
    text += chunk as string;
    if (text.length >= REFUSAL_BYTES) break;
  }
  answer.destroy();
  return text.slice(0, REFUSAL_BYTES);
}

/** The message of bvs-mock's error shape, or the text as it came. */
function messageOf(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // Not the error shape: say what came.
  }
  return body.slice(0, 500);
}
