import { afterRealTime } from '../wall';

/** What changed: events emitted, a delivery attempt ended, a request that may have changed state, the clock moved, or a reset. */
export type ChangeKind = 'emitted' | 'delivery' | 'request' | 'clock' | 'reset';

/** One notice of `GET /_mock/stream`: what changed since the previous one. It carries no data: a reader fetches what it shows. */
export interface ChangeNotice {
  /** Counts up from 1 per feed; a gap means nothing, a reader just refetches. */
  id: number;
  kinds: ChangeKind[];
  /** Simulated time when the notice was sent. */
  now: string;
}

/** A subscriber's callback. */
export type ChangeListener = (notice: ChangeNotice) => void;

/**
 * Real milliseconds notices are gathered before one is sent: a scenario that emits a thousand events in
 * an instant costs each open page one notice, not a thousand (docs/fidelity.md, the dashboard row).
 */
export const CHANGE_NOTICE_MS = 150;

/**
 * Readers of `GET /_mock/stream` served at once unless told otherwise (`--max-stream-readers`). A dashboard tab
 * holds one (a hidden tab none) and a test one per `control.onChange`, so 64 is more than a team opens at once;
 * and it is an eighth of the connections bvs-mock's server holds (DEFAULT_MAX_CONNECTIONS, 512), so readers,
 * which never hang up by themselves, cannot take the connections the API and health checks need
 * (docs/fidelity.md row 101).
 */
export const DEFAULT_MAX_STREAM_READERS = 64;

/** The largest `maxStreamReaders` a mock takes; bvs-mock's server takes at most half its connections (start-server.ts). */
export const MAX_STREAM_READERS_LIMIT = 10_000;

/**
 * Tells whoever watches (`GET /_mock/stream`: the dashboard, a test) that state changed, coalesced into
 * at most one small notice per {@link CHANGE_NOTICE_MS}. It holds no history, so a page left open for
 * days costs nothing, and a reset or a stop never waits for a reader.
 */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  /** How each listener's stream is ended when the world ends. */
  private readonly closers = new Map<ChangeListener, () => void>();
  private readonly pending = new Set<ChangeKind>();
  private cancel: (() => void) | null = null;
  private sent = 0;

  /** `maxReaders`: listeners at once, default {@link DEFAULT_MAX_STREAM_READERS}. */
  constructor(
    private readonly now: () => string,
    readonly maxReaders = DEFAULT_MAX_STREAM_READERS,
  ) {}

  /** Readers now listening (tests check none is left behind). */
  get size(): number {
    return this.listeners.size;
  }

  /** Whether `maxReaders` already listen, so one more would be refused. */
  get full(): boolean {
    return this.listeners.size >= this.maxReaders;
  }

  /**
   * Adds a listener; returns the function that removes it, or null when `maxReaders` already listen. `close` ends
   * the listener's stream when the world ends ({@link close}): a reader of an ended session is not left hanging.
   */
  subscribe(listener: ChangeListener, close?: () => void): (() => void) | null {
    if (this.full) return null;
    this.listeners.add(listener);
    if (close !== undefined) this.closers.set(listener, close);
    return () => {
      this.listeners.delete(listener);
      this.closers.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Ends every reader's stream (the world ends: a session deleted or expired); nothing more is sent. */
  close(): void {
    const closers = [...this.closers.values()];
    this.listeners.clear();
    this.closers.clear();
    this.stop();
    for (const close of closers) close();
  }

  /** Records a change; the notice goes out once the gathering window ends. Costs nothing while nobody listens. */
  notify(kind: ChangeKind): void {
    if (this.listeners.size === 0) return;
    this.pending.add(kind);
    this.cancel ??= afterRealTime(CHANGE_NOTICE_MS, () => this.flush());
  }

  private flush(): void {
    this.cancel = null;
    if (this.pending.size === 0) return;
    this.sent += 1;
    const notice: ChangeNotice = { id: this.sent, kinds: [...this.pending], now: this.now() };
    this.pending.clear();
    for (const listener of [...this.listeners]) listener(notice);
  }

  private stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.pending.clear();
  }
}
