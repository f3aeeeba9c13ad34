import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { ControlApiError } from './api';

/** Counts the change notices seen: a view reloads what it shows when it moves. */
export const ChangeCount = createContext(0);

/** What a view loaded: the latest data (kept while a reload runs, so a live page never flickers), and the latest error. */
export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  reload: () => void;
}

/**
 * Loads with `load` now, whenever `key` (what is shown: an id, a query) changes, and on every change notice. At most one load runs at a
 * time: notices that arrive meanwhile cause one more load once it ends, however many there were, so a
 * busy scenario costs a page one request at a time.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const changes = useContext(ChangeCount);
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [manual, setManual] = useState(0);
  const running = useRef(false);
  const again = useRef(false);
  const latest = useRef(load);
  latest.current = load;
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const run = useCallback(async () => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    do {
      again.current = false;
      try {
        const value = await latest.current();
        if (!alive.current) return;
        setData(value);
        setError(undefined);
      } catch (caught) {
        if (!alive.current) return;
        // What is gone (a reset, an eviction) is not shown any more; on a failure that may pass (a stopped
        // server), the last data stays beside the error.
        if (caught instanceof ControlApiError && caught.status === 404) setData(undefined);
        setError(caught as Error);
      }
    } while (again.current);
    running.current = false;
  }, []);

  // A change of what is shown drops the old data at once; a notice keeps it until the new one arrives.
  useEffect(() => setData(undefined), [key]);
  useEffect(() => void run(), [run, key, changes, manual]);
  return { data, error, reload: () => setManual((count) => count + 1) };
}
