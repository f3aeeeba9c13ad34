/** Answers kept at most; the oldest go first. */
const CAPACITY = 1_024;

/**
 * Serialized answers of pure reads, kept until state may have changed
 * (`RouteContext.stateVersion`): polling a settled validation costs no
 * rendering. Kept as UTF-8 bytes, encoded once, so a transport writes them
 * without encoding the text again on every answer. One per world: two
 * worlds in one process never share answers. An answer holding a pre-signed URL is
 * kept only until the first one expires: a read from then on signs it anew (docs/fidelity.md row 77).
 */
export class AnswerCache {
  private readonly answers = new Map<string, { version: number; body: Uint8Array; until: number }>();

  /** The body kept for `key` at `version`, if any and none of its pre-signed URLs has expired at `now` (epoch ms). */
  get(key: string, version: number, now: number): Uint8Array | undefined {
    const kept = this.answers.get(key);
    return kept?.version === version && now < kept.until ? kept.body : undefined;
  }

  /** Keeps `body` for `key` at `version`, until the first `expires=` of a pre-signed URL it holds. */
  set(key: string, version: number, body: Uint8Array): void {
    let until = Infinity;
    for (const match of Buffer.from(body)
      .toString('utf8')
      .matchAll(/[?&]expires=(\d+)/g))
      until = Math.min(until, Number(match[1]) * 1000);
    this.answers.delete(key);
    this.answers.set(key, { version, body, until });
    if (this.answers.size > CAPACITY) this.answers.delete(this.answers.keys().next().value!);
  }

  clear(): void {
    this.answers.clear();
  }
}
