/** Answers kept at most; the oldest go first. */
const CAPACITY = 1_024;

/**
 * Serialized answers of pure reads, kept until state may have changed
 * (`RouteContext.stateVersion`): polling a settled validation costs no
 * rendering. Kept as UTF-8 bytes, encoded once, so a transport writes them
 * without encoding the text again on every answer. One per world: two
 * worlds in one process never share answers.
 */
export class AnswerCache {
  private readonly answers = new Map<string, { version: number; body: Uint8Array }>();

  /** The body kept for `key` at `version`, if any. */
  get(key: string, version: number): Uint8Array | undefined {
    const kept = this.answers.get(key);
    return kept?.version === version ? kept.body : undefined;
  }

  /** Keeps `body` for `key` at `version`. */
  set(key: string, version: number, body: Uint8Array): void {
    this.answers.delete(key);
    this.answers.set(key, { version, body });
    if (this.answers.size > CAPACITY) this.answers.delete(this.answers.keys().next().value!);
  }

  clear(): void {
    this.answers.clear();
  }
}
