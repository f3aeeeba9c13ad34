import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ControlClient } from '../src/client/control-client';
import type { SessionList, SessionSummary } from '../src/schemas/session-answers';
import { go, readHash } from './hash-route';

/**
 * Real milliseconds between two reads of `GET /_mock/sessions`. Another session's changes send no notice to
 * this page's stream (each session has its own), so the list is polled: a small answer, read only while the
 * tab is shown, and at once when it is shown again.
 */
const SESSIONS_POLL_MS = 5_000;

/** The server's sessions as last read, and the name each one was last seen with (kept once it is gone). */
export interface Sessions {
  list: SessionList | undefined;
  nameOf: (id: string) => string;
}

/** What a person calls a session: its label, or its id when it has none. */
function nameOf(session: SessionSummary): string {
  return session.default ? 'default session' : (session.label ?? session.id);
}

/** Reads `GET /_mock/sessions` now, whenever `chosen` changes, and every few seconds while the tab is shown. */
export function useSessions(client: ControlClient, chosen: string): Sessions {
  const [list, setList] = useState<SessionList | undefined>(undefined);
  const names = useRef(new Map<string, string>());
  useEffect(() => {
    let stopped = false;
    const read = async () => {
      if (document.hidden) return;
      try {
        const answer = await client.call('control.sessions.list');
        if (stopped) return;
        for (const session of answer.sessions) names.current.set(session.id, nameOf(session));
        setList(answer);
      } catch {
        // Kept as it was: the views say what fails (a stopped server, a locked one).
      }
    };
    void read();
    const timer = setInterval(() => void read(), SESSIONS_POLL_MS);
    const onVisibility = () => void read();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [client, chosen]);
  const named = useCallback((id: string) => names.current.get(id) ?? id, []);
  return { list, nameOf: named };
}

/** Validations and delivery records of a session, as the switcher shows them. */
function countsOf(session: SessionSummary): string {
  const { validations, deliveries } = session.counts;
  const records = deliveries.pending + deliveries.succeeded + deliveries.failed + deliveries.expired;
  return `${validations} ${validations === 1 ? 'validation' : 'validations'}, ${records} ${records === 1 ? 'delivery' : 'deliveries'}`;
}

/**
 * Shown when the server holds sessions besides the default one (or one is chosen): every view then acts on
 * the session chosen (`session=` in the hash), through `/_mock/sessions/{id}/…`.
 */
export function SessionSwitcher({ sessions, current }: { sessions: SessionList | undefined; current: string }) {
  const listed = sessions?.sessions ?? [];
  if (listed.length < 2 && current === '') return null;
  const known = current === '' || listed.some((session) => session.id === current);
  return (
    <label class="org">
      Session{' '}
      <select
        data-testid="session"
        value={current === '' ? 'default' : current}
        // What was shown (an id, a page, a filter) belongs to the session left: the view starts afresh. The view is
        // read from the address at the change, not from the last render: a link followed just before may not have
        // rendered yet, and the switch must not take the page back to the view it left.
        onChange={(event) => go(readHash().view, { session: event.currentTarget.value === 'default' ? undefined : event.currentTarget.value, org: undefined })}
      >
        {listed.map((session) => (
          <option key={session.id} value={session.id} title={`${session.id} · seed ${session.seed} · ${session.clock.mode} clock`}>
            {nameOf(session)} ({countsOf(session)})
          </option>
        ))}
        {known ? null : <option value={current}>{current}</option>}
      </select>
    </label>
  );
}

/** Says that the session the page showed has ended and that the default session is shown in its place. */
export function SessionEndedNote({ id, name, onClose }: { id: string; name: string; onClose: () => void }) {
  return (
    <div class="note note-bad session-ended" role="alert" data-testid="session-ended">
      <span>
        Session <strong>{name}</strong>
        {name === id ? '' : <span class="mono"> ({id})</span>} has ended (<code>DELETE /_mock/sessions/{'{id}'}</code>, or idle longer than{' '}
        <code>--session-ttl</code>): its data is gone. The default session is shown.
      </span>{' '}
      <button type="button" class="small" onClick={onClose}>
        Dismiss
      </button>
    </div>
  );
}
