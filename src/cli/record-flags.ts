import type { Recorder } from '../proxy/recorder';

/** A repeatable flag's values, in the order given. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Writes a recording to its file a second after a change (so it can be read live), and at once when asked (at exit). */
export function liveWriter(recorder: Recorder, file: string): { soon(): void; now(): void } {
  let pending: NodeJS.Timeout | undefined;
  const now = () => {
    if (pending !== undefined) clearTimeout(pending);
    pending = undefined;
    recorder.write(file);
  };
  // Written once at start, so a bad path shows at once and a reader finds an empty recording rather than nothing.
  now();
  return {
    soon() {
      if (pending !== undefined) return;
      pending = setTimeout(() => {
        pending = undefined;
        try {
          recorder.write(file);
        } catch (error) {
          process.stderr.write(`bvs-mock: --record ${file}: ${(error as Error).message}\n`);
        }
      }, 1_000);
      pending.unref();
    },
    now,
  };
}
