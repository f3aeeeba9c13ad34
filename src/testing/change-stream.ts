import type { ControlClient } from '../client/control-client';
import { readEvents } from '../client/server-sent-events';
import type { ChangeNotice } from '../world/change-feed';
import { typedClientFor, type ControlClientOptions } from './control-connection';

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
export async function listenForChanges(
  connection: ControlClientOptions | ControlClient,
  listener: (notice: ChangeNotice) => void,
): Promise<() => Promise<void>> {
  const client = 'open' in connection ? connection : typedClientFor(connection);
  // Hung up by a signal: over a server it closes the connection; in-process, msw passes a fetch's signal on to
  // bvs-mock, which then lets the stream go.
  const hangUp = new AbortController();
  const answer = await client.open('control.stream', { signal: hangUp.signal });
  if (answer.status !== 200 || answer.body === null) {
    const body = await answer.text().catch(() => '');
    // A 401 is the token; anything else (503: too many readers open) says itself what to do.
    throw new Error(
      answer.status === 401
        ? `bvs-mock: GET /_mock/stream answered 401; is the control token (controlToken) right?`
        : `bvs-mock: GET /_mock/stream answered ${answer.status}: ${messageOf(body)}`,
    );
  }
  const events = readEvents(answer.body);
  const closed = (async () => {
    try {
      for await (const event of events) if (event.event === 'change') listener(JSON.parse(event.data) as ChangeNotice);
    } catch {
      // Hung up, or bvs-mock stopped: nothing more to hear.
    }
  })();
  return () => {
    hangUp.abort();
    return closed;
  };
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
