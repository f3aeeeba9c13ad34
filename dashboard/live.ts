import type { ControlClient } from '../src/client/control-client';
import { readEvents } from '../src/client/server-sent-events';

/**
 * How the live stream stands: connected, connecting again, refused for want of the control token, or refused
 * because its session is gone (404: ended or expired).
 */
export type LiveState = 'live' | 'connecting' | 'locked' | 'gone';

/** Real milliseconds between two tries to reconnect a dropped stream. */
const RETRY_MS = 3_000;

/**
 * Listens to `GET /_mock/stream` and calls `onChange` with the kinds of each change notice (and `['ready']`
 * on every (re)connection, since notices may have been missed). Read with fetch, not EventSource, so the
 * control token travels as a header. A hidden tab lets its stream go and reconnects when shown again:
 * a browser holds about six connections per server, and many open tabs must not use them all up.
 */
export function watchChanges(client: ControlClient, onChange: (kinds: string[]) => void, onState: (state: LiveState) => void): () => void {
  let stopped = false;
  let abort: AbortController | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    clearTimeout(retry);
    if (stopped || document.hidden || abort !== null) return;
    const controller = new AbortController();
    abort = controller;
    onState('connecting');
    let waitMs = RETRY_MS;
    try {
      const response = await client.open('control.stream', { signal: controller.signal });
      if (response.status === 401 || response.status === 404) {
        onState(response.status === 401 ? 'locked' : 'gone');
        return;
      }
      // Too many readers open (docs/fidelity.md row 101): ask again no sooner than the server says.
      const retryAfterS = Number(response.headers.get('retry-after'));
      if (response.status === 503 && retryAfterS > 0) waitMs = Math.max(RETRY_MS, retryAfterS * 1000);
      if (!response.ok || response.body === null) throw new Error(`stream answered ${response.status}`);
      for await (const event of readEvents(response.body)) {
        if (event.event === 'ready') {
          onState('live');
          onChange(['ready']);
        } else if (event.event === 'change') onChange((JSON.parse(event.data) as { kinds: string[] }).kinds);
      }
    } catch {
      // A dropped connection, a stopped server: tried again below.
    } finally {
      if (abort === controller) abort = null;
    }
    if (!stopped && !document.hidden) {
      onState('connecting');
      retry = setTimeout(() => void connect(), waitMs);
    }
  };

  const onVisibility = () => {
    if (document.hidden) {
      abort?.abort();
      abort = null;
    } else void connect();
  };
  document.addEventListener('visibilitychange', onVisibility);
  void connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    abort?.abort();
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
