/**
 * The dashboard's one way to the server: the control API, nothing else, so everything the page does can
 * be scripted with the same calls (openapi/control.yaml). With `--control-token` the token the user types
 * in is kept for this tab only (sessionStorage) and sent as `Authorization: Bearer`.
 */

const TOKEN_KEY = 'bvs-mock-control-token';

/** A refusal of the control API, with its error code and message as bvs-mock wrote them. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let token = sessionStorage.getItem(TOKEN_KEY) ?? '';
const lockListeners = new Set<() => void>();

/** The token typed in, kept until the tab closes. */
export function setToken(value: string): void {
  token = value.trim();
  sessionStorage.setItem(TOKEN_KEY, token);
}

/** Called when a call is refused for want of the control token, so the page can ask for it. */
export function onLocked(listener: () => void): () => void {
  lockListeners.add(listener);
  return () => lockListeners.delete(listener);
}

/** The Authorization header, when a token was given. */
export function authHeaders(): Record<string, string> {
  return token === '' ? {} : { authorization: `Bearer ${token}` };
}

/** The organization control calls act on (the switcher's choice); empty: the default one. */
let organization = '';

export function setOrganization(id: string): void {
  organization = id;
}

/** A path with its query, leaving out empty values, and the organization chosen. */
export function withQuery(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  if (organization !== '') params.set('organization_id', organization);
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** One control call; a refusal throws {@link ControlError} with bvs-mock's message. */
export async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...authHeaders() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  const answer = type.includes('json') ? ((await response.json()) as unknown) : await response.text();
  if (!response.ok) {
    const error = (answer as { error?: { code?: string; message?: string; issues?: Array<{ path: string; message: string }> } }).error;
    if (response.status === 401) for (const listener of lockListeners) listener();
    const issues = (error?.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    const message = error?.message ?? `${method} ${path} answered ${response.status}`;
    throw new ControlError(response.status, error?.code ?? 'error', issues === '' ? message : `${message} ${issues}`);
  }
  return answer as T;
}

/** Pages a list is read in at most, by {@link allPages}: a tree's events fit one or two; this only stops a runaway. */
const MAX_PAGES = 100;

/**
 * Every item of a control API list, following `next_cursor` until it is null: a page may hold fewer items than
 * asked for, since it also stops at its byte budget (`cut_by_size`, docs/fidelity.md row 102).
 */
export async function allPages<T, K extends string>(path: string, key: K, query: Record<string, string | number | undefined> = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const page = await control<Record<K, T[]> & { next_cursor: string | null }>('GET', withQuery(path, { ...query, cursor }));
    items.push(...page[key]);
    if (page.next_cursor === null) break;
    cursor = page.next_cursor;
  }
  return items;
}
