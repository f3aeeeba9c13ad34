/** How many distinct header sets are shared at once; past it, the table starts over (a set is a few hundred bytes). */
const MAX_SHARED = 1_000;

/**
 * A secret as an attempt shows it: its last 4 characters after `****`, the scheme kept (`Bearer ****f00d`), so a
 * rotated or mistyped secret can be told apart from the right one without being readable. A secret of fewer than
 * 8 characters shows none of them.
 */
export function maskSecret(value: string): string {
  const [, scheme, secret] = /^(\S+ )?(.*)$/s.exec(value)!;
  const tail = secret!.length >= 8 ? secret!.slice(-4) : '';
  return `${scheme ?? ''}****${tail}`;
}

/**
 * The request headers of each delivery attempt, as the dashboard and `GET /_mock/events/{id}` show them (docs/fidelity.md
 * row 30): every header sent, the authorization's secrets masked by {@link maskSecret}. Attempts to one receiver send the
 * same headers again and again, so equal sets are one shared, frozen object.
 */
export class SentHeaders {
  private readonly shared = new Map<string, Readonly<Record<string, string>>>();

  /**
   * The headers sent, with those named in `secrets` masked and those in `hidden` shown as `****` (a value of the
   * server's own, like the one that tells its own deliveries, which differs from one server to the next and is nobody's business).
   */
  of(headers: Readonly<Record<string, string>>, secrets: readonly string[], hidden: readonly string[] = []): Readonly<Record<string, string>> {
    const show = (name: string, value: string) => (hidden.includes(name) ? '****' : secrets.includes(name) ? maskSecret(value) : value);
    const shown = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, show(name, value)]));
    const key = JSON.stringify(shown);
    const known = this.shared.get(key);
    if (known !== undefined) return known;
    if (this.shared.size >= MAX_SHARED) this.shared.clear();
    const frozen = Object.freeze(shown);
    this.shared.set(key, frozen);
    return frozen;
  }
}
