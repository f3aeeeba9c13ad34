import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { Control, dashboardClient, storeToken, storedToken } from './api';
import { TokenPrompt } from './token-prompt';
import { ChangeCount } from './use-load';
import { DriftView } from './views/drift-view';
import { RelayView } from './views/relay-view';

/** How often the page reads the tool's report again: proxy and listen have no change stream to say when it moved. */
const POLL_MS = 2_000;

/** The tools besides `bvs-mock serve` that serve the dashboard, each with the one view of what it found. */
type Tool = 'proxy' | 'listen';

const TITLES: Readonly<Record<Tool, { view: string; subtitle: string; source: string }>> = {
  proxy: { view: 'Drift', subtitle: 'validating proxy: the drift between the contract and the upstream', source: 'GET /_mock/drift' },
  listen: { view: 'Relay', subtitle: "webhook relay: the service's deliveries and what they broke", source: 'GET /_mock/relay' },
};

/**
 * The dashboard as `bvs-mock proxy` and `bvs-mock listen` serve it: the one view of what that tool found, read again
 * every {@link POLL_MS}. None of serve's views (validations, events, sessions...) is here: these tools have no control
 * API beside their report. With `--control-token` the token is asked for and kept as serve's dashboard does.
 */
export function ToolApp({ tool }: { tool: Tool }) {
  const [token, setToken] = useState(storedToken);
  const [locked, setLocked] = useState(false);
  const [ticks, setTicks] = useState(0);
  const onLocked = useCallback(() => setLocked(true), []);
  const client = useMemo(() => dashboardClient(token, '', '', { onLocked, onSessionGone: () => undefined }), [token, onLocked]);
  useEffect(() => {
    if (locked) return undefined;
    const timer = setInterval(() => setTicks((count) => count + 1), POLL_MS);
    return () => clearInterval(timer);
  }, [locked]);
  const { view, subtitle, source } = TITLES[tool];
  useEffect(() => {
    document.title = `bvs-mock ${tool}`;
  }, [tool]);
  return (
    <Control.Provider value={client}>
      <ChangeCount.Provider value={ticks}>
        <div class="shell" data-tool={tool}>
          <header class="top">
            <span class="brand">bvs-mock {tool}</span>
            <span class="muted">{subtitle}</span>
            <span class="spacer" />
            <span class={`live live-${locked ? 'locked' : 'live'}`} data-testid="live" title={`Read again every ${POLL_MS / 1000} s by ${source}`}>
              {locked ? 'locked' : `every ${POLL_MS / 1000} s`}
            </span>
          </header>
          <nav class="nav">
            <a href="#/" class="active">
              {view}
            </a>
          </nav>
          <main class="content">{tool === 'proxy' ? <DriftView /> : <RelayView token={token} onLocked={onLocked} />}</main>
          {locked ? (
            <TokenPrompt
              tool={`bvs-mock ${tool}`}
              onDone={(value) => {
                setToken(storeToken(value));
                setLocked(false);
                setTicks((count) => count + 1);
              }}
            />
          ) : null}
        </div>
      </ChangeCount.Provider>
    </Control.Provider>
  );
}
