import { ControlApiError } from './api';
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A status as a coloured label: green for what succeeded, amber for what waits, red for what failed. */
export function Badge({ value, title }: { value: string; title?: string }) {
  return (
    <span class={`badge badge-${toneOf(value)}`} title={title}>
      {value}
    </span>
  );
}

const TONES: Record<string, string> = {
  succeeded: 'good',
  true: 'good',
  settled: 'good',
  enabled: 'good',
  completed: 'good',
  approved: 'good',
  extracted: 'good',
  evaluated: 'good',
  submitted: 'good',
  low: 'info',
  pending: 'wait',
  created: 'wait',
  running: 'wait',
  temporary_error: 'wait',
  missing_input_data: 'wait',
  medium: 'wait',
  failed: 'bad',
  expired: 'bad',
  false: 'bad',
  definitive_error: 'bad',
  high: 'bad',
  critical: 'bad',
  disabled: 'off',
};

function toneOf(value: string): string {
  // A receiver's status code: 2xx succeeded, anything else is what the retry policy answers to.
  if (/^\d{3}$/.test(value)) return value.startsWith('2') ? 'good' : 'bad';
  return TONES[value] ?? (/error|refused|reset|timeout|disabled|deleted/.test(value) ? 'bad' : 'plain');
}

/** Pretty-printed JSON in monospace. */
export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

/** An ISO instant as date and time to the second, in UTC like every timestamp of the API. */
export function Instant({ at }: { at: string | null | undefined }) {
  if (at === null || at === undefined) return <span class="muted">—</span>;
  return (
    <time dateTime={at} title={at}>
      {at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}
    </time>
  );
}

/** Seconds between two instants, written short: +5s, +2m30s, +3h. */
export function offset(from: string, to: string): string {
  let seconds = Math.round((Date.parse(to) - Date.parse(from)) / 1000);
  const sign = seconds < 0 ? '−' : '+';
  seconds = Math.abs(seconds);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
  ] as const) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)}${unit}`);
      seconds %= size;
    }
  }
  if (seconds > 0 || parts.length === 0) parts.push(`${seconds}s`);
  return sign + parts.join('');
}

/** Copies a text to the clipboard, and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Without a secure context there is no clipboard API: select the text for Ctrl+C instead.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return (
    <button type="button" class="small" onClick={() => void copy()}>
      {done ? 'Copied' : label}
    </button>
  );
}

/** A refusal or failure, with bvs-mock's own message. */
export function ErrorNote({ error }: { error: Error | undefined }) {
  if (error === undefined) return null;
  return (
    <div class="note note-bad" role="alert">
      {error instanceof ControlApiError ? error.reason : error.message}
    </div>
  );
}

/** A titled block of a view. */
export function Panel({ title, actions, children }: { title: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="panel">
      <header class="panel-head">
        <h2>{title}</h2>
        {actions === undefined ? null : <div class="panel-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** Shown while nothing is loaded yet. */
export function Loading() {
  return <p class="muted">Loading…</p>;
}

/**
 * A text filter that applies when committed (Enter or leaving the field). What is typed is the field's own until
 * then: a live update drawing the view again while someone types (a delivery retried, a new event) keeps it, where
 * a field bound to the applied filter alone would be emptied under the typist's hands.
 */
export function FilterInput({ label, placeholder, value, onCommit }: { label: string; placeholder: string; value: string; onCommit: (value: string) => void }) {
  const [draft, setDraft] = useState(value);
  // A filter applied from elsewhere (a link, Back) replaces what was typed.
  useEffect(() => setDraft(value), [value]);
  return (
    <input
      aria-label={label}
      placeholder={placeholder}
      value={draft}
      onInput={(event) => setDraft(event.currentTarget.value)}
      onChange={(event) => onCommit(event.currentTarget.value.trim())}
    />
  );
}

/** A number with its label, in a row of tiles; red when `bad`. */
export function Tile({ label, value, bad = false }: { label: string; value: string; bad?: boolean }) {
  return (
    <div class={`tile ${bad ? 'tile-bad' : ''}`}>
      <span class="tile-label">{label}</span>
      <span class="tile-value">{value}</span>
    </div>
  );
}
