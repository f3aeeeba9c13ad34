import { useControl } from '../api';
import { Badge, ErrorNote, Loading, Panel, Tile } from '../components';
import { useLoad } from '../use-load';

/**
 * The drift `bvs-mock proxy` found so far (`GET /_mock/drift`): each difference between the contract and a request or
 * an answer that went through it, by operation, side, kind and JSON path, with what the contract says, what was sent,
 * the row of docs/fidelity.md it concerns, how many exchanges showed it and the first of them.
 */
export function DriftView() {
  const control = useControl();
  const drift = useLoad(() => control.call('control.drift'), '');
  const data = drift.data;
  return (
    <div class="stack" data-testid="drift">
      <ErrorNote error={drift.error} />
      {data === undefined ? (
        <Loading />
      ) : (
        <>
          <div class="tiles">
            <Tile label="Exchanges checked" value={String(data.exchanges)} />
            <Tile label="Differences" value={String(data.differences.length + data.differences_omitted)} bad={data.differences.length > 0} />
            {data.differences_omitted > 0 ? <Tile label="Counted, not listed" value={String(data.differences_omitted)} bad /> : null}
          </div>
          <Panel title={`Differences (${data.differences.length})`}>
            {data.differences.length === 0 ? (
              <p class="muted">
                {data.exchanges === 0
                  ? 'No API exchange has gone through the proxy yet: point the client at it.'
                  : 'Every exchange so far matches the contract.'}
              </p>
            ) : (
              <table class="table compact" data-testid="differences">
                <thead>
                  <tr>
                    <th>Operation</th>
                    <th>Side</th>
                    <th>Kind</th>
                    <th>JSON path</th>
                    <th>The contract says</th>
                    <th>Sent</th>
                    <th>Fidelity row</th>
                    <th>Count</th>
                    <th>First request</th>
                  </tr>
                </thead>
                <tbody>
                  {data.differences.map((difference) => (
                    <tr
                      key={`${difference.operation} ${difference.side} ${difference.path} ${difference.kind}`}
                      data-operation={difference.operation}
                      data-path={difference.path}
                    >
                      <td class="mono">{difference.operation}</td>
                      <td>{difference.side === 'answer' ? 'upstream answer' : 'client request'}</td>
                      <td>
                        <Badge value={difference.kind} />
                      </td>
                      <td class="mono">{difference.path}</td>
                      <td>{difference.expected}</td>
                      <td class="mono">{difference.actual}</td>
                      <td data-testid="row">{difference.row === null ? <span class="muted">—</span> : `row ${difference.row}`}</td>
                      <td>{difference.count}</td>
                      <td class="mono">{difference.first_request_id}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Panel>
        </>
      )}
    </div>
  );
}
