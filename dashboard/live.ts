import { authHeaders } from './api';

/** How the live stream stands: connected, connecting again, or refused for want of the control token. */
export type LiveState = 'live' | 'connecting' | 'locked';

/** Real milliseconds between two tries to reconnect a dropped stream. */
const RETRY_MS = 3_000;

/**
 * Listens to `GET /_mock/stream` and calls `onChange` with the kinds of each change notice (and `['ready']`
 * on every (re)connection, since notices may have been missed). Read with fetch, not EventSource, so the
 * control token travels as a header. A hidden tab lets its stream go and reconnects when shown again:
 * a browser holds about six connections per server, and many open tabs must not use them all up.
 */
export function watchChanges(onChange: (kinds: string[]) => void, onState: (state: LiveState) => void): () => void {
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
      const response = await fetch('/_mock/stream', { headers: authHeaders(), signal: controller.signal, cache: 'no-store' });
      if (response.status === 401) {
        onState('locked');
        return;
      }
      // Too many readers open (docs/fidelity.md row 101): ask again no sooner than the server says.
      const retryAfterS = Number(response.headers.get('retry-after'));
      if (response.status === 503 && retryAfterS > 0) waitMs = Math.max(RETRY_MS, retryAfterS * 1000);
      if (!response.ok || response.body === null) throw new Error(`stream answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'ready') {
            onState('live');
            onChange(['ready']);
          } else if (event === 'change' && data !== undefined) onChange((JSON.parse(data) as { kinds: string[] }).kinds);
        }
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
