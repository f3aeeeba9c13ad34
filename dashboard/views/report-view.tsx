import type { ControlClient } from '../../src/client/control-client';
import { useControl } from '../api';
import { Badge, ErrorNote, Loading, Panel, Tile } from '../components';
import { useLoad } from '../use-load';

/** The contract report of the run so far (`GET /_mock/report`): what was exercised and not, violations at their JSON paths, receivers' findings. */
export function ReportView() {
  const control = useControl();
  const report = useLoad(() => control.call('control.report', { query: { format: 'json' } }), '');
  const data = report.data;
  return (
    <div class="stack" data-testid="report">
      <ErrorNote error={report.error} />
      {data === undefined ? (
        <Loading />
      ) : (
        <>
          <div class="tiles">
            <Tile
              label="Operations exercised"
              value={`${Object.keys(data.operations.exercised).length} / ${Object.keys(data.operations.exercised).length + data.operations.not_exercised.length}`}
            />
            <Tile
              label="Event types emitted"
              value={`${Object.keys(data.events.emitted).length} / ${Object.keys(data.events.emitted).length + data.events.not_emitted.length}`}
            />
            <Tile label="Requests with violations" value={String(data.violations.violating_requests)} bad={data.violations.violating_requests > 0} />
            <Tile
              label="Receivers with findings"
              value={String(data.receivers.findings.filter((finding) => finding.not_2xx + finding.no_answer + finding.slow_answers > 0).length)}
              bad={data.receivers.findings.some((finding) => finding.not_2xx + finding.no_answer > 0)}
            />
            <div class="tile">
              <span class="tile-label">Download</span>
              <span>
                <button type="button" class="link" onClick={() => void download(control, 'markdown', 'md')}>
                  Markdown
                </button>{' '}
                ·{' '}
                <button type="button" class="link" onClick={() => void download(control, 'junit', 'xml')}>
                  JUnit XML
                </button>
              </span>
            </div>
          </div>
          <Panel title={`Contract violations (${data.violations.issues})`}>
            {data.violations.requests.length === 0 ? (
              <p class="muted">No request broke the contract.</p>
            ) : (
              <table class="table compact" data-testid="violations">
                <thead>
                  <tr>
                    <th>Request</th>
                    <th>Status</th>
                    <th>JSON path</th>
                    <th>Rule</th>
                    <th>Message</th>
                  </tr>
                </thead>
                <tbody>
                  {data.violations.requests.flatMap((request) =>
                    request.violations.map((issue, index) => (
                      <tr key={`${request.id}-${index}`}>
                        <td class="mono">{index === 0 ? `${request.method} ${request.path}` : ''}</td>
                        <td>{index === 0 ? <Badge value={String(request.status)} /> : null}</td>
                        <td class="mono">{issue.path}</td>
                        <td class="mono">{issue.code}</td>
                        <td>{issue.message}</td>
                      </tr>
                    )),
                  )}
                </tbody>
              </table>
            )}
          </Panel>
          <Panel title="Receivers">
            {data.receivers.findings.length === 0 ? (
              <p class="muted">No delivery attempt yet.</p>
            ) : (
              <table class="table compact" data-testid="receivers">
                <thead>
                  <tr>
                    <th>URL</th>
                    <th>Deliveries</th>
                    <th>Attempts</th>
                    <th>Outside 2xx</th>
                    <th>No answer</th>
                    <th>Retried</th>
                    <th>Slow (&gt; {data.receivers.quick_answer_ms} ms)</th>
                    <th>Slowest</th>
                  </tr>
                </thead>
                <tbody>
                  {data.receivers.findings.map((finding) => (
                    <tr key={finding.url}>
                      <td class="mono wrap">{finding.url}</td>
                      <td>{finding.deliveries}</td>
                      <td>{finding.attempts}</td>
                      <td class={finding.not_2xx > 0 ? 'bad-text' : ''}>{finding.not_2xx}</td>
                      <td class={finding.no_answer > 0 ? 'bad-text' : ''}>{finding.no_answer}</td>
                      <td>{finding.retried_deliveries}</td>
                      <td>{finding.slow_answers}</td>
                      <td>{Math.round(finding.slowest_ms)} ms</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Panel>
          <div class="columns">
            <Panel title="Operations">
              <Exercised exercised={data.operations.exercised} missing={data.operations.not_exercised} />
            </Panel>
            <Panel title="Events">
              <Exercised exercised={data.events.emitted} missing={data.events.not_emitted} />
            </Panel>
          </div>
        </>
      )}
    </div>
  );
}

/** What was exercised, with counts, then what was not. */
function Exercised({ exercised, missing }: { exercised: Record<string, number>; missing: readonly string[] }) {
  return (
    <ul class="exercised">
      {Object.entries(exercised).map(([name, count]) => (
        <li key={name}>
          <span class="yes">✓</span> <span class="mono">{name}</span> <span class="muted">×{count}</span>
        </li>
      ))}
      {missing.map((name) => (
        <li key={name} class="not">
          <span class="no">○</span> <span class="mono">{name}</span> <span class="muted">not exercised</span>
        </li>
      ))}
    </ul>
  );
}

/** The report in another format, fetched with the token and saved as a file. */
async function download(control: ControlClient, format: 'markdown' | 'junit', extension: string): Promise<void> {
  const text = await control.text('control.report', { query: { format } });
  const url = URL.createObjectURL(new Blob([text], { type: format === 'junit' ? 'application/xml' : 'text/markdown' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `bvs-mock-report.${extension}`;
  link.click();
  URL.revokeObjectURL(url);
}
