import { useState } from 'preact/hooks';
import { useControl } from '../api';
import { ErrorNote, Instant, Loading, Panel, offset } from '../components';
import { useLoad } from '../use-load';

const UNITS = { seconds: 1, minutes: 60, hours: 3_600, days: 86_400 } as const;

/** The simulated clock (docs/design.md "One simulated clock"): its mode and time, moved by a chosen amount or run to the end. */
export function ClockView() {
  const control = useControl();
  const clock = useLoad(() => control.call('control.clock'), '');
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<keyof typeof UNITS>('minutes');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [last, setLast] = useState<string | null>(null);
  const act = async (label: string, work: () => Promise<string>) => {
    setBusy(label);
    setError(undefined);
    try {
      setLast(await work());
      clock.reload();
    } catch (caught) {
      setError(caught as Error);
    } finally {
      setBusy(null);
    }
  };
  const data = clock.data;
  return (
    <div class="stack">
      <Panel title="Simulated clock">
        <ErrorNote error={clock.error} />
        {data === undefined ? (
          <Loading />
        ) : (
          <dl class="facts big" data-testid="clock">
            <dt>Mode</dt>
            <dd>
              {data.mode}
              {data.mode === 'realtime' ? ` ×${data.speed}` : ''}
            </dd>
            <dt>Now</dt>
            <dd data-testid="clock-now">
              <Instant at={data.now} /> <span class="muted">({offset(data.started_at, data.now)} since start)</span>
            </dd>
            <dt>Started</dt>
            <dd>
              <Instant at={data.started_at} />
            </dd>
            <dt>Scheduled</dt>
            <dd>
              {data.pending} timer{data.pending === 1 ? '' : 's'}
              {data.next_at === null ? null : (
                <span class="muted">
                  , next at <Instant at={data.next_at} /> ({offset(data.now, data.next_at)})
                </span>
              )}
            </dd>
          </dl>
        )}
      </Panel>
      <Panel title="Move it">
        <ErrorNote error={error} />
        <form
          class="form-row"
          onSubmit={(event) => {
            event.preventDefault();
            const seconds = Number(amount) * UNITS[unit];
            void act('advance', async () => {
              const answer = await control.call('control.clock.advance', { body: { seconds } });
              return `Advanced ${amount} ${unit}: ${answer.fired} timer${answer.fired === 1 ? '' : 's'} fired.`;
            });
          }}
        >
          <label>
            Advance by
            <input name="amount" type="number" min="0" step="any" required value={amount} onInput={(event) => setAmount(event.currentTarget.value)} />
          </label>
          <label>
            Unit
            <select name="unit" value={unit} onChange={(event) => setUnit(event.currentTarget.value as keyof typeof UNITS)}>
              {Object.keys(UNITS).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="primary" disabled={busy !== null}>
            {busy === 'advance' ? 'Advancing…' : 'Advance'}
          </button>
          <button
            type="button"
            disabled={busy !== null}
            onClick={() =>
              void act('run', async () => {
                const answer = await control.call('control.clock.run', { body: {} });
                const counts = Object.entries(answer.deliveries)
                  .map(([status, count]) => `${count} ${status}`)
                  .join(', ');
                // A receiver that hangs holds deliveries for minutes: the run answers at its bound instead (docs/fidelity.md row 98).
                return answer.settled
                  ? `Ran to the end: ${counts} deliveries.`
                  : `Stopped after ${answer.max_wait_seconds} s, not yet at the end (${answer.in_flight} attempts in flight): ${counts} deliveries. Run again to go on.`;
              })
            }
          >
            {busy === 'run' ? 'Running…' : 'Run to the end'}
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy !== null}
            onClick={() =>
              confirm('Reset everything? Validations, deliveries, the journal and added endpoints go; the clock goes back to its start.') &&
              void act('reset', async () => {
                await control.call('control.reset');
                return 'Reset: everything is back to its start.';
              })
            }
          >
            Reset
          </button>
        </form>
        {last === null ? null : (
          <p class="note note-good" data-testid="clock-result">
            {last}
          </p>
        )}
        <p class="muted small-text">
          With the manual clock, an advance answers once the deliveries due by then have ended, so retries keep their exact gaps. The same calls:{' '}
          <code>POST /_mock/clock/advance {'{"seconds": 60}'}</code>, <code>POST /_mock/clock/run</code>.
        </p>
      </Panel>
    </div>
  );
}
