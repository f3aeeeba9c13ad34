import { createHmac, timingSafeEqual } from 'node:crypto';

/** Pre-signed URLs live 24 hours (spec §6 rule 2, §8). */
export const PRESIGNED_URL_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * How far past `now + 24 h` an `expires` may lie and still be believed. The
 * signer floors to whole seconds, so its own URLs never need it; the minute is
 * slack, not a feature.
 */
export const PRESIGNED_URL_SKEW_MS = 60 * 1000;

/** Outcome of checking a pre-signed URL. */
export type SignatureCheck = { ok: true } | { ok: false; reason: 'invalid_signature' | 'expired'; expiredAt?: number };

/**
 * Signs file paths so that a URL works for 24 simulated hours and then answers
 * "expired", like the service's pre-signed document and report URLs.
 *
 * The signature covers the whole path, organization included
 * (`/_mock/files/<organization_id>/reports/<batch>.pdf`), and the expiry.
 */
export class UrlSigner {
  /**
   * @param secret the HMAC key. `createMock` gives 32 random bytes per start, or
   *   `bvs-mock:<seed>` when a seed is given (`--seed`), so that URLs are
   *   byte-identical across runs (docs/fidelity.md); unit tests give a fixed one
   * @param baseUrl the public base address, like `https://127.0.0.1:4010`
   * @param mount where a session's `/_mock` paths are, like `/_mock/sessions/ses_…` (its URLs must lead back to
   *   it, since organization ids repeat across sessions); default: `/_mock` itself. The signature covers the
   *   path within the session, which is what the session sees once the server has taken the prefix off.
   */
  constructor(
    private readonly secret: string,
    private base: string,
    private readonly mount = '/_mock',
  ) {
    this.base = base.replace(/\/+$/, '');
  }

  /** The public base address URLs start with. */
  get baseUrl(): string {
    return this.base;
  }

  /** The HMAC key (a world's snapshot keeps it, so URLs issued before it stay valid in the restored world). */
  get key(): string {
    return this.secret;
  }

  /** Changes the public base address (known only once the server listens). */
  setBaseUrl(baseUrl: string): void {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** The absolute URL of `path`, unsigned. */
  absolute(path: string): string {
    return `${this.base}${this.outward(path)}`;
  }

  /** A URL for `path` that expires `PRESIGNED_URL_LIFETIME_MS` after `now` (epoch ms). */
  sign(path: string, now: number): string {
    const expires = Math.floor((now + PRESIGNED_URL_LIFETIME_MS) / 1000);
    return `${this.base}${this.outward(path)}?expires=${expires}&signature=${this.signature(path, expires)}`;
  }

  /** A `/_mock` path as reached from outside: under the session's mount. */
  private outward(path: string): string {
    return path.startsWith('/_mock/') ? `${this.mount}${path.slice('/_mock'.length)}` : path;
  }

  /**
   * Checks a signed path's query at time `now` (epoch ms). An `expires` later
   * than this signer could have issued (more than 24 h and a minute ahead) is
   * refused even under a valid signature: no URL outlives its lifetime.
   */
  check(path: string, expires: string | null, signature: string | null, now: number): SignatureCheck {
    if (expires === null || signature === null || !/^\d{1,15}$/.test(expires)) return { ok: false, reason: 'invalid_signature' };
    const expiredAt = Number(expires) * 1000;
    if (expiredAt > now + PRESIGNED_URL_LIFETIME_MS + PRESIGNED_URL_SKEW_MS) return { ok: false, reason: 'invalid_signature' };
    const expected = Buffer.from(this.signature(path, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid_signature' };
    return now >= expiredAt ? { ok: false, reason: 'expired', expiredAt } : { ok: true };
  }

  private signature(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('hex').slice(0, 32);
  }
}
