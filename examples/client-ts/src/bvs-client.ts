import type { DataSourceRunRecords, EntityValidation } from 'bvs-mock/schemas';

/** The part of `fetch` the client uses, so a test can pass one that trusts a self-signed certificate. */
export type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string | URLSearchParams }) => Promise<Response>;

/** Options of {@link BvsClient}. */
export interface BvsClientOptions {
  /** The service's base address, like `https://bvs.example.com`. */
  baseUrl: string;
  /** The OAuth client of your organization (spec §5.4). */
  clientId: string;
  clientSecret: string;
  /** Default: the global `fetch`. */
  fetch?: Fetch;
  /** Renew a cached token this many seconds before it expires by our own clock; default 60. */
  refreshMarginSeconds?: number;
  /** Our clock, epoch milliseconds; default `Date.now`. */
  now?: () => number;
  /** Attempts of one call when the service answers 429 or 5xx or the connection fails; default 4. */
  maxAttempts?: number;
  /** The first wait before a retry after a 5xx or a failed connection, doubled each time; default 200 ms. */
  backoffMs?: number;
}

/** What a create call takes (spec §4). */
export interface CreateValidation {
  tin: string;
  country: string;
  contact_email?: string;
  information_request?: { template_id: string };
}

/** An answer of the service outside 2xx, with its error code (spec §7.6). */
export class BvsApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly body: unknown,
  ) {
    super(`Business Validation Service answered ${status}${code === undefined ? '' : ` ${code}`}`);
    this.name = 'BvsApiError';
  }
}

/**
 * A small client of the Business Validation Service: OAuth client credentials with a cached token that is
 * renewed before it expires and once more when the service says it expired (our clock and the service's may
 * disagree), retries that honour `Retry-After` and back off after 5xx answers and failed connections, then
 * create, read, records and the consolidated report's PDF.
 */
export class BvsClient {
  private token: { value: string; renewAt: number } | undefined;
  private readonly fetch: Fetch;
  private readonly now: () => number;
  /** Tokens fetched so far: a test can see a renewal. */
  tokensFetched = 0;

  constructor(private readonly options: BvsClientOptions) {
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.now = options.now ?? Date.now;
  }

  /** `POST /api/v2/entity_validations`. */
  createValidation(input: CreateValidation): Promise<EntityValidation> {
    return this.call('POST', '/api/v2/entity_validations', input) as Promise<EntityValidation>;
  }

  /** `GET /api/v2/entity_validations/{id}`. */
  getValidation(id: string): Promise<EntityValidation> {
    return this.call('GET', `/api/v2/entity_validations/${encodeURIComponent(id)}`) as Promise<EntityValidation>;
  }

  /** `GET /api/v2/data_source_runs/{id}/records`: what a run gathered. */
  records(runId: string): Promise<DataSourceRunRecords> {
    return this.call('GET', `/api/v2/data_source_runs/${encodeURIComponent(runId)}/records`) as Promise<DataSourceRunRecords>;
  }

  /** Downloads a pre-signed document (the consolidated report's PDF): no credential, the URL is the proof (spec §8). */
  async download(url: string): Promise<Uint8Array> {
    const answer = await this.fetch(url, { method: 'GET', headers: {} });
    if (!answer.ok) throw new BvsApiError(answer.status, await errorCode(answer), undefined);
    return new Uint8Array(await answer.arrayBuffer());
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const send = () => this.withRetries(() => this.sendOnce(method, path, body));
    let answer = await send();
    if (answer.status === 401) {
      // Expired or revoked before our clock said so: one new token, one more try, never a loop.
      const code = await errorCode(answer.clone());
      if (code === 'token_expired' || code === 'invalid_token') {
        this.token = undefined;
        answer = await send();
      }
    }
    const text = await answer.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    if (!answer.ok) throw new BvsApiError(answer.status, (parsed as { error?: { code?: string } } | undefined)?.error?.code, parsed);
    return parsed;
  }

  /**
   * One call with its retries: after a 429 it waits the `Retry-After` the service asked for; after a 5xx or a
   * failed connection it waits `backoffMs`, doubling each time; it gives up after `maxAttempts`.
   */
  private async withRetries(attempt: () => Promise<Response>): Promise<Response> {
    const attempts = this.options.maxAttempts ?? 4;
    let wait = this.options.backoffMs ?? 200;
    for (let number = 1; ; number += 1) {
      let answer: Response | undefined;
      try {
        answer = await attempt();
      } catch (error) {
        if (number >= attempts) throw error;
      }
      if (answer !== undefined) {
        if (number >= attempts || (answer.status !== 429 && answer.status < 500)) return answer;
        if (answer.status === 429) {
          const retryAfter = Number(answer.headers.get('retry-after'));
          await sleep((Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1) * 1000);
          continue;
        }
      }
      await sleep(wait);
      wait *= 2;
    }
  }

  private async sendOnce(method: string, path: string, body?: unknown): Promise<Response> {
    return this.fetch(`${this.options.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await this.accessToken()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  private async accessToken(): Promise<string> {
    if (this.token !== undefined && this.now() < this.token.renewAt) return this.token.value;
    const answer = await this.fetch(`${this.options.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: this.options.clientId, client_secret: this.options.clientSecret }),
    });
    const parsed = (await answer.json()) as { access_token?: string; expires_in?: number; error?: string };
    if (!answer.ok || parsed.access_token === undefined) throw new BvsApiError(answer.status, parsed.error, parsed);
    this.tokensFetched += 1;
    const margin = (this.options.refreshMarginSeconds ?? 60) * 1000;
    this.token = { value: parsed.access_token, renewAt: this.now() + (parsed.expires_in ?? 0) * 1000 - margin };
    return this.token.value;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function errorCode(answer: Response): Promise<string | undefined> {
  try {
    return ((await answer.json()) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
