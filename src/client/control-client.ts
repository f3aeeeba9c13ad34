import { ControlApiError } from './control-api-error';
import type { ControlAnswer, ControlInput, ControlOperationName } from './control-contract';
import { CONTROL_PATHS } from './control-paths';
import { encodeLabel, LABEL_HEADER } from '../schemas/request-label';

/**
 * How to reach a bvs-mock's control API. The same in node and in a browser: requests go through the
 * global `fetch`, looked up at each call (so msw's interception of an in-process bvs-mock applies).
 */
export interface ControlConnection {
  /** Its base URL, like `https://127.0.0.1:4010`; empty (the default): the page's own origin, as the dashboard is served. */
  url?: string;
  /** The control token it was started with (`--control-token`), if it is locked. */
  controlToken?: string;
  /**
   * The session the calls act on (`POST /_mock/sessions` answered its id): each operation goes to its path under
   * `/_mock/sessions/{id}`. Default: none, the default session. The session operations themselves stay the server's.
   */
  session?: string;
  /** Sent as `organization_id` on every call whose own query does not name one; default: none (bvs-mock's default organization). */
  organizationId?: string;
  /**
   * The label of each call (header `x-bvs-mock-label`), asked at each call: bvs-mock/testing answers the current
   * test's name. Undefined or empty: none.
   */
  label?: () => string | undefined;
  /** More options of every fetch: in node, the `dispatcher` that trusts bvs-mock's certificate (src/testing/trusting-dispatcher.ts). */
  fetchOptions?: Record<string, unknown>;
  /** Told of every refusal before it is thrown (the dashboard asks for the token on a 401). */
  onRefusal?: (error: ControlApiError) => void;
}

/** Per call: a signal to abort it with. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** A call's arguments after the operation: its input, optional where the operation needs none. */
export type CallArgs<O extends ControlOperationName> =
  object extends ControlInput<O> ? [input?: ControlInput<O> & CallOptions] : [input: ControlInput<O> & CallOptions];

/** The operations whose answer is a page (`next_cursor`). */
export type PagedOperation = {
  [O in ControlOperationName]: ControlAnswer<O> extends { next_cursor: string | null } ? O : never;
}[ControlOperationName];

/** The list fields of a paged answer (`events`, `validations`, `requests`). */
export type ListField<O extends PagedOperation> = {
  [K in keyof ControlAnswer<O>]: ControlAnswer<O>[K] extends ReadonlyArray<unknown> ? K : never;
}[keyof ControlAnswer<O>];

/** Pages {@link ControlClient.all} reads at most: a runaway stops there. */
const MAX_PAGES = 10_000;

/**
 * The typed client of the control API: one method per kind of call, each taking an operation of the
 * route table by name, with its path parameters, query and body typed from the route's schemas.
 *
 * @example
 * const control = createControlClient({ url: 'https://127.0.0.1:4010' });
 * const page = await control.call('control.events.list', { query: { status: 'failed' } });
 * await control.call('control.events.redeliver', { params: { id: page.events[0]!.id } });
 */
export interface ControlClient {
  readonly connection: Readonly<ControlConnection>;
  /** The operation's answer: JSON parsed, text as text, `undefined` for a 204; a refusal throws {@link ControlApiError}. */
  call<O extends ControlOperationName>(operation: O, ...args: CallArgs<O>): Promise<ControlAnswer<O>>;
  /** The operation's answer as text, whatever its media type (the report as Markdown or JUnit XML); a refusal throws. */
  text<O extends ControlOperationName>(operation: O, ...args: CallArgs<O>): Promise<string>;
  /** The response as it came, refusals too, its body unread: what a reader of the change stream needs. */
  open<O extends ControlOperationName>(operation: O, ...args: CallArgs<O>): Promise<Response>;
  /** Every item of a paged list, following `next_cursor` until it is null (a page may hold fewer than asked for). */
  all<O extends PagedOperation, K extends ListField<O>>(operation: O, field: K, ...args: CallArgs<O>): Promise<ControlAnswer<O>[K]>;
  /** The method and URL a call goes to. */
  target<O extends ControlOperationName>(operation: O, ...args: CallArgs<O>): { method: string; url: string; path: string };
}

type LooseInput = { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown; contentType?: string } & CallOptions;

/** The typed client of the control API for `connection`. */
export function createControlClient(connection: ControlConnection = {}): ControlClient {
  const target = (operation: ControlOperationName, input: LooseInput = {}) => {
    const entry = CONTROL_PATHS[operation];
    if (entry === undefined) throw new Error(`bvs-mock: ${String(operation)} is no control operation; see CONTROL_PATHS (src/client/control-paths.ts)`);
    const [method, pattern] = entry;
    const filled = pattern.replace(/:([A-Za-z_]+)/g, (_match: string, name: string) => {
      const value = input.params?.[name];
      if (value === undefined || value === '') throw new Error(`bvs-mock: ${operation} needs the path parameter "${name}" (${method} ${pattern})`);
      return encodeURIComponent(value);
    });
    const session = connection.session;
    const inSession = session !== undefined && session !== '' && !operation.startsWith('control.sessions.');
    const path = inSession ? `/_mock/sessions/${encodeURIComponent(session)}${filled.slice('/_mock'.length)}` : filled;
    const query = new URLSearchParams();
    const named = input.query?.organization_id !== undefined;
    if (connection.organizationId !== undefined && connection.organizationId !== '' && !named) query.set('organization_id', connection.organizationId);
    for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
    const search = query.toString() === '' ? '' : `?${query}`;
    const base = connection.url ?? '';
    const url = base === '' ? `${path}${search}` : new URL(`${path}${search}`, base).href;
    return { method, url, path };
  };

  const send = async (operation: ControlOperationName, input: LooseInput = {}): Promise<{ response: Response; call: string }> => {
    const { method, url, path } = target(operation, input);
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (input.body !== undefined) {
      body = typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
      headers['content-type'] = input.contentType ?? 'application/json';
    }
    if (connection.controlToken !== undefined && connection.controlToken !== '') headers.authorization = `Bearer ${connection.controlToken}`;
    const label = connection.label?.();
    if (label !== undefined && label !== '') headers[LABEL_HEADER] = encodeLabel(label);
    const call = `${method} ${path}`;
    try {
      const response = await globalThis.fetch(url, { method, headers, body, signal: input.signal, ...connection.fetchOptions } as RequestInit);
      return { response, call };
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      const where = connection.url === undefined || connection.url === '' ? 'bvs-mock' : new URL(connection.url).origin;
      throw new Error(`bvs-mock: cannot reach ${where} for ${call}: ${(error as Error).message}`, { cause: error });
    }
  };

  /** The body as text, once the status says it was accepted; a refusal throws with bvs-mock's error. */
  const accepted = async ({ response, call }: { response: Response; call: string }): Promise<{ text: string; type: string }> => {
    const text = await response.text();
    if (response.ok) return { text, type: response.headers.get('content-type') ?? '' };
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text in the error.
    }
    const error = new ControlApiError(response.status, parsed, call);
    connection.onRefusal?.(error);
    throw error;
  };

  const callLoose = async (operation: ControlOperationName, input?: LooseInput): Promise<unknown> => {
    const { text, type } = await accepted(await send(operation, input));
    if (text === '') return undefined;
    return /[/+]json\b/.test(type) ? JSON.parse(text) : text;
  };

  return {
    connection,
    call: (operation, ...args) => callLoose(operation, args[0] as LooseInput) as never,
    text: async (operation, ...args) => (await accepted(await send(operation, args[0] as LooseInput))).text,
    open: async (operation, ...args) => (await send(operation, args[0] as LooseInput)).response,
    target: (operation, ...args) => target(operation, args[0] as LooseInput),
    async all(operation, field, ...args) {
      const input = (args[0] ?? {}) as LooseInput;
      const items: unknown[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < MAX_PAGES; pages += 1) {
        const page = (await callLoose(operation, { ...input, query: { ...input.query, cursor } })) as Record<string, unknown> & { next_cursor: string | null };
        items.push(...(page[field as string] as unknown[]));
        if (page.next_cursor === null) break;
        cursor = page.next_cursor;
      }
      return items as never;
    },
  };
}
