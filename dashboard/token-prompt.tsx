import { useState } from 'preact/hooks';

/** Asks for the control token of a locked bvs-mock (`--control-token`); kept for this tab only. */
export function TokenPrompt({ onDone, tool = 'bvs-mock' }: { onDone: (token: string) => void; tool?: string }) {
  const [value, setValue] = useState('');
  return (
    <div class="overlay">
      <form
        class="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          onDone(value);
        }}
      >
        <h2>This {tool} is locked</h2>
        <p>
          It was started with <code>--control-token</code>. Enter that token: the page sends it as <code>Authorization: Bearer</code> to the control API and
          keeps it until this tab closes.
        </p>
        <input
          name="token"
          type="password"
          autoFocus
          required
          value={value}
          onInput={(event) => setValue(event.currentTarget.value)}
          placeholder="control token"
        />
        <div class="form-actions">
          <button type="submit" class="primary">
            Unlock
          </button>
        </div>
      </form>
    </div>
  );
}
