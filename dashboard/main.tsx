import { render } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { Control, dashboardClient, isSessionGone, storeToken, storedToken, useControl } from './api';
import { Instant } from './components';
import { go, linkTo, readHash, useHashRoute } from './hash-route';
import { watchChanges, type LiveState } from './live';
import { SessionEndedNote, SessionSwitcher, useSessions } from './sessions';
import { TokenPrompt } from './token-prompt';
import { ToolApp } from './tool-app';
import { ChangeCount, useLoad } from './use-load';
import { ClockView } from './views/clock-view';
import { EndpointsView } from './views/endpoints-view';
import { EventsView } from './views/events-view';
import { ReportView } from './views/report-view';
import { ValidationsView } from './views/validations-view';
import './styles.css';

const VIEWS = [
  ['validations', 'Validations'],
  ['events', 'Events'],
  ['endpoints', 'Webhook endpoints'],
  ['clock', 'Clock'],
  ['report', 'Contract report'],
] as const;

function App() {
  const route = useHashRoute();
  const [changes, setChanges] = useState(0);
  const [live, setLive] = useState<LiveState>('connecting');
  const [locked, setLocked] = useState(false);
  const [token, setToken] = useState(storedToken);
  const [ended, setEnded] = useState<{ id: string; name: string } | null>(null);
  const session = route.params.session ?? '';
  const organization = route.params.org ?? '';
  const onLocked = useCallback(() => setLocked(true), []);
  // The session's list is the server's, whatever session is chosen.
  const server = useMemo(() => dashboardClient(token, '', '', { onLocked, onSessionGone: () => undefined }), [token, onLocked]);
  const sessions = useSessions(server, session);
  const { nameOf } = sessions;

  /** The session shown has ended: say so, and show the default session in its place (the link to it replaced). */
  const leave = useCallback(
    (gone: string) => {
      if (readHash().params.session !== gone) return;
      const name = nameOf(gone);
      setEnded({ id: gone, name });
      go(readHash().view, { session: undefined, org: undefined }, { replace: true });
    },
    [nameOf],
  );
  /** Whether a session missing from the list or refusing the stream has ended, asked once more before leaving it. */
  const confirmGone = useCallback(
    (id: string) =>
      server.call('control.sessions.get', { params: { id } }).then(
        () => undefined,
        (error: unknown) => (isSessionGone(error) ? leave(id) : undefined),
      ),
    [server, leave],
  );

  // The views' client names the session and organization chosen; the stream's is the session's, the same for every organization.
  const handlers = useMemo(() => ({ onLocked, onSessionGone: leave }), [onLocked, leave]);
  const client = useMemo(() => dashboardClient(token, session, organization, handlers), [token, session, organization, handlers]);
  const streamClient = useMemo(() => dashboardClient(token, session, '', handlers), [token, session, handlers]);

  useEffect(() => watchChanges(streamClient, () => setChanges((count) => count + 1), setLive), [streamClient, locked]);
  useEffect(() => setChanges((count) => count + 1), [organization]);
  useEffect(() => {
    if (session !== '') setEnded(null);
  }, [session]);
  const listed = sessions.list?.sessions;
  useEffect(() => {
    if (session !== '' && listed !== undefined && !listed.some((item) => item.id === session)) void confirmGone(session);
  }, [listed, session, confirmGone]);
  useEffect(() => {
    if (live === 'gone' && session !== '') void confirmGone(session);
  }, [live, session, confirmGone]);

  return (
    <Control.Provider value={client}>
      <ChangeCount.Provider value={changes}>
        {/* Keyed by session: nothing read from one session stays on screen in another. */}
        <div class="shell" key={session}>
          <header class="top">
            <span class="brand">bvs-mock</span>
            <span class="muted">Business Validation Service mock</span>
            <span class="spacer" />
            <ClockBadge />
            <SessionSwitcher sessions={sessions.list} current={session} />
            <OrganizationSwitcher current={organization} />
            <span class={`live live-${live}`} data-testid="live" title="Updates arrive by GET /_mock/stream">
              {live === 'live' ? 'live' : live === 'locked' ? 'locked' : live === 'gone' ? 'ended' : 'reconnecting…'}
            </span>
          </header>
          <nav class="nav">
            {VIEWS.map(([view, label]) => (
              <a key={view} href={linkTo(view)} class={route.view === view ? 'active' : ''}>
                {label}
              </a>
            ))}
            <div class="nav-foot">
              <a href="/_mock/openapi.json" target="_blank" rel="noreferrer">
                Control API document
              </a>
            </div>
          </nav>
          <main class="content">
            {ended === null ? null : <SessionEndedNote id={ended.id} name={ended.name} onClose={() => setEnded(null)} />}
            <View view={route.view} params={route.params} />
          </main>
          {locked ? (
            <TokenPrompt
              onDone={(value) => {
                setToken(storeToken(value));
                setLocked(false);
                setChanges((count) => count + 1);
              }}
            />
          ) : null}
        </div>
      </ChangeCount.Provider>
    </Control.Provider>
  );
}

function View({ view, params }: { view: string; params: Record<string, string> }) {
  switch (view) {
    case 'events':
      return <EventsView filters={params} />;
    case 'endpoints':
      return <EndpointsView />;
    case 'clock':
      return <ClockView />;
    case 'report':
      return <ReportView />;
    default:
      return <ValidationsView params={params} />;
  }
}

/**
 * Simulated time now, in the header of every view. A realtime clock moves between change notices too, so the
 * badge moves with it, at the clock's speed from the last time read; the other modes move only by notices.
 */
function ClockBadge() {
  const control = useControl();
  const clock = useLoad(() => control.call('control.clock'), '');
  const [readAt, setReadAt] = useState(0);
  const [wallNow, setWallNow] = useState(0);
  useEffect(() => setReadAt(Date.now()), [clock.data]);
  const realtime = clock.data?.mode === 'realtime';
  useEffect(() => {
    if (!realtime) return undefined;
    const timer = setInterval(() => setWallNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [realtime]);
  if (clock.data === undefined) return null;
  const elapsed = realtime ? Math.max(0, wallNow - readAt) * clock.data.speed : 0;
  const now = elapsed === 0 ? clock.data.now : new Date(Date.parse(clock.data.now) + Math.floor(elapsed / 1000) * 1000).toISOString();
  return (
    <a class="clock-badge" href={linkTo('clock')} title={`${clock.data.mode} clock`} data-testid="header-clock">
      {clock.data.mode} · <Instant at={now} />
    </a>
  );
}

/** Shown only when several organizations are configured: every view then acts on the one chosen (`org=` in the hash). */
function OrganizationSwitcher({ current }: { current: string }) {
  const control = useControl();
  const list = useLoad(() => control.call('control.organizations'), '');
  const organizations = list.data?.organizations ?? [];
  if (organizations.length < 2) return null;
  const chosen = current === '' ? organizations.find((organization) => organization.default)?.id : current;
  return (
    <label class="org">
      Organization{' '}
      <select
        data-testid="organization"
        value={chosen}
        onChange={(event) => {
          const { view, params } = { view: location.hash.replace(/^#\/?/, '').split('?')[0] || 'validations', params: {} };
          go(view, { ...params, org: event.currentTarget.value });
        }}
      >
        {organizations.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.id}
            {organization.default ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

const root = document.getElementById('app')!;
// The server says which tool serves the page (src/api/routes/dashboard-page-routes.ts): proxy and listen have no control API, only their own report.
const tool = root.dataset.tool;
render(tool === 'proxy' || tool === 'listen' ? <ToolApp tool={tool} /> : <App />, root);
