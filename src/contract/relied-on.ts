import type { EventType, JournalEntry, ReliedOnChoice } from '../schemas';

/** Where a choice was first seen: a request, or an event delivered to a receiver of the client. */
type Occurrence = ReliedOnChoice['seen']['first'];

/** One choice: its docs/fidelity.md row and the sentence that says it. */
type Choice = readonly [row: number, choice: string];

/**
 * Entries a log keeps at most. Every choice comes from the fixed catalogue below (error codes are the problems'
 * own), so a run cannot reach it; it is a bound all the same, since a long CI run must not grow the report.
 */
const MAX_ENTRIES = 500;

/** A request path as a first occurrence shows it: at most this many characters. */
const MAX_PATH = 200;

/** A value the spec never shows (or only names), read in an answer or an event: field and value, and its choice. */
const VALUE_CHOICES: Readonly<Record<string, Choice>> = {
  'status=items_collected': [13, 'Information request status `items_collected` (every item submitted): a value the spec never shows'],
  'status=in_review': [13, 'Information request status `in_review` (the analysis is done): a value the spec never shows'],
  'status=evaluated': [13, 'Information request status `evaluated` (the responsible reviewer submitted the after-evaluation): a value the spec never shows'],
  'status=temporary_error': [14, 'A run in `temporary_error` keeps it while its retry runs, then takes its next outcome (the spec shows no transitions)'],
  'status=missing_input_data': [14, 'A run in `missing_input_data` waits for its input, then goes back to `created` (the spec shows no transitions)'],
  'severity=low': [5, 'Alert severity `low`: the spec shows only `medium` and `high`'],
  'severity=critical': [5, 'Alert severity `critical`: the spec shows only `medium` and `high`'],
  'risk_level=low': [6, 'Related entity `risk_level` `low`: the spec gives no values'],
  'risk_level=medium': [6, 'Related entity `risk_level` `medium`: the spec gives no values'],
  'risk_level=high': [6, 'Related entity `risk_level` `high`: the spec gives no values'],
  'auth_type=none': [1, 'Webhook endpoint `auth_type` `none`: the spec shows no wire value but `secret`'],
  'auth_type=oauth': [1, 'Webhook endpoint `auth_type` `oauth`: the spec shows no wire value but `secret`'],
};

/** The fields whose values {@link VALUE_CHOICES} knows, as JSON writes them (the answers and events are bvs-mock's own JSON). */
const VALUE_PATTERN = /"(status|severity|risk_level|auth_type)"\s*:\s*"([a-z_]{1,40})"/g;

/** What receiving an event of a type relies on, whatever its payload. */
const EVENT_CHOICES: Partial<Record<EventType, readonly Choice[]>> = {
  'entity_validation.stakeholder.created': [
    [24, '`stakeholder.created` fires right after the `data_source_run.ready` of the run that discovers partners (the spec gives it no place in the order)'],
  ],
  'data_source_run_batch.child_batches_ready': [
    [21, 'Each child of `child_batches_ready` is a whole batch, a superset of the fields the spec lists'],
    [42, '`child_batches_ready` is on by default (the spec gates it by an organization setting it does not describe)'],
  ],
  'data_source_run_batch.consolidated_report_ready': [
    [22, '`consolidated_report_ready` carries the main batch with its `child_batches` (payload shape: not shown)'],
  ],
  'information_request.all_items_collected': [[71, '`all_items_collected` shows the request with status `items_collected`, the status after the change']],
  'information_request.analysis_success': [
    [22, '`analysis_success` carries the whole information request (payload shape: not shown)'],
    [71, '`analysis_success` shows the request with status `in_review`, the status after the change'],
  ],
  'information_request.evaluated': [
    [22, '`evaluated` carries the whole information request (payload shape: not shown)'],
    [71, '`evaluated` shows the request with status `evaluated`, the status after the change'],
  ],
  'information_request.status_updated': [[22, '`status_updated` carries the whole information request (payload shape: not shown)']],
  'information_request.requestable_item.extracted': [[22, '`requestable_item.extracted` carries one requestable item, in a shape the spec does not show']],
  'information_request.assignment.updated': [[22, '`assignment.updated` carries one assignment, in a shape the spec does not show']],
};

/** The operations whose call (answered 2xx) relies on a choice. */
const OPERATION_CHOICES: Readonly<Record<string, Choice>> = {
  createEntityValidation: [46, 'A create is answered `201 Created` with a `Location` header (the spec does not show the status)'],
  getDataSourceRunRecords: [17, 'The records answer is `{ data_source_run_id, type, count, records }` (shape: not shown)'],
};

/** The scopes bvs-mock knows (docs/fidelity.md row 19); any other name asked for is answered `invalid_scope`. */
const SCOPES = ['validations:read', 'validations:write', 'webhook_endpoints:read'];

/** An API request and its answer, as the pipeline has them once it answered (src/api/api-core.ts). */
export interface ObservedAnswer {
  entry: JournalEntry;
  /** The route's path pattern and whether it is a path of bvs-mock's choosing (`x-bvs-mock-extension`); none when no route matched. */
  route?: { pattern: string; extension: boolean };
  /** The request is `POST /oauth/token`. */
  tokenRequest: boolean;
  /** Its `Authorization` header names the Basic scheme. */
  basicAuthorization?: boolean;
  requestBody: Buffer;
  responseBody: string | Uint8Array;
}

/** An event the engine emitted and the deliveries it made to the client's receivers. */
export interface ObservedDelivery {
  type: EventType;
  resourceId: string;
  emittedAt: string;
  /** The envelope as the engine rendered it: `type` and the resource. */
  envelope: unknown;
  /** The envelope as delivered (JSON text). */
  body: string;
  deliveries: ReadonlyArray<{ id: string; legacy: boolean }>;
}

/**
 * What the client's run relied on of bvs-mock's choices (the contract report's `relied_on`): one entry per
 * docs/fidelity.md row and choice, with its first occurrence and a count, fed by every API answer the client got
 * and every event delivered to its receivers. One per world; a reset empties it.
 */
export class ReliedOnLog {
  private readonly entries = new Map<string, ReliedOnChoice>();
  private readonly scannedBodies = new WeakMap<Uint8Array, readonly Choice[]>();

  /** Counts one occurrence of a choice; the first one is kept. */
  note(row: number, choice: string, first: Occurrence | (() => Occurrence)): void {
    const key = `${row}\u0000${choice}`;
    const known = this.entries.get(key);
    if (known !== undefined) known.seen.count += 1;
    else if (this.entries.size < MAX_ENTRIES) this.entries.set(key, { row, choice, seen: { count: 1, first: typeof first === 'function' ? first() : first } });
  }

  /** The API answer of one request of the client. */
  observeAnswer({ entry, route, tokenRequest, basicAuthorization = false, requestBody, responseBody }: ObservedAnswer): void {
    // Made only for a choice seen for the first time: most answers of a run rely on what earlier ones did.
    const first = (): Occurrence => ({ at: entry.at, request_id: entry.id, request: `${entry.method} ${entry.path.slice(0, MAX_PATH)}` });
    const note = ([row, choice]: Choice) => this.note(row, choice, first);
    if (route?.extension === true)
      note([
        18,
        `\`${entry.method === 'HEAD' ? 'GET' : entry.method} ${route.pattern}\`: a path of bvs-mock's choosing (x-bvs-mock-extension); the spec names the operation, not its path`,
      ]);
    if (entry.method === 'HEAD' && route !== undefined) note([56, '`HEAD` is answered as `GET` without a body']);
    if (tokenRequest) this.observeTokenRequest(requestBody, note);
    if (tokenRequest && basicAuthorization && entry.status < 400)
      note([69, 'The token endpoint takes the client credentials as HTTP Basic; the spec shows them as form fields (reading `token-client-auth`)']);
    if (entry.violations.some((issue) => issue.code === 'unknown_field') && entry.status < 400)
      note([43, 'A request field bvs-mock does not know is tolerated (recorded as a violation); the real service may refuse it']);
    if (entry.status >= 400) {
      this.observeError(entry, tokenRequest, responseBody, note);
      return;
    }
    const operationChoice = entry.operation === null ? undefined : OPERATION_CHOICES[entry.operation];
    if (operationChoice !== undefined) note(operationChoice);
    if (entry.method !== 'HEAD') for (const [row, choice] of this.valuesIn(responseBody)) this.note(row, choice, first);
  }

  /**
   * The choices the values of an answer body rely on, one per value found. A body the answer cache hands out again
   * (the same bytes for every read while nothing changes) is read once.
   */
  private valuesIn(body: string | Uint8Array): readonly Choice[] {
    if (typeof body === 'string') return choicesOfValues(body);
    const known = this.scannedBodies.get(body);
    if (known !== undefined) return known;
    const found = choicesOfValues(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
    this.scannedBodies.set(body, found);
    return found;
  }

  /** An event delivered (or addressed) to the client's receivers: one occurrence per event, whatever the number of receivers. */
  observeDelivery(event: ObservedDelivery): void {
    const first = event.deliveries[0];
    if (first === undefined) return;
    const occurrence: Occurrence = { at: event.emittedAt, event: event.type, resource_id: event.resourceId, delivery_id: first.id };
    const note = ([row, choice]: Choice) => this.note(row, choice, occurrence);
    for (const choice of EVENT_CHOICES[event.type] ?? []) note(choice);
    const resource = (key: string) => (event.envelope as Record<string, Record<string, unknown> | undefined>)[key];
    if (event.type === 'data_source_run_batch.ready' && resource('data_source_run_batch')?.runs_succeeded === false)
      note([
        31,
        '`data_source_run_batch.ready` is sent with `runs_succeeded: false` when a run of the main entity failed definitively (reading `ready-on-main-failure=sent`; `withheld` plays the trigger table\'s "completed successfully")',
      ]);
    if (event.type === 'data_source_run_batch.data_source_run.ready' && resource('data_source_run')?.status === 'definitive_error')
      note([23, '`data_source_run.ready` fires for a run that failed definitively too: the spec says "completed"']);
    if (event.deliveries.some((delivery) => delivery.legacy) && event.deliveries.some((delivery) => !delivery.legacy))
      note([58, "The legacy `webhook_url` and the organization's endpoints both receive the validation's events"]);
    for (const [row, choice] of choicesOfValues(event.body)) this.note(row, choice, occurrence);
  }

  /** The choices in row order (in the order first seen within a row). */
  list(): ReliedOnChoice[] {
    return [...this.entries.values()]
      .map((entry, order) => ({ entry, order }))
      .sort((a, b) => a.entry.row - b.entry.row || a.order - b.order)
      .map(({ entry }) => ({ ...entry, seen: { count: entry.seen.count, first: { ...entry.seen.first } } }));
  }

  /** Takes the entries of a snapshot (a world's `relied_on`), into this empty log. */
  restore(entries: readonly ReliedOnChoice[]): void {
    for (const entry of entries.slice(0, MAX_ENTRIES))
      this.entries.set(`${entry.row}\u0000${entry.choice}`, { ...entry, seen: { count: entry.seen.count, first: { ...entry.seen.first } } });
  }

  clear(): void {
    this.entries.clear();
  }

  private observeTokenRequest(body: Buffer, note: (choice: Choice) => void): void {
    const form = new URLSearchParams(body.toString('utf8'));
    const scope = form.get('scope');
    if (scope === null) note([19, 'A token request without `scope` gets every scope the OAuth client is configured with']);
    else if (scope.trim() === '') note([55, '`scope` given empty is read as absent: every scope the OAuth client is configured with']);
    else
      for (const name of new Set(scope.trim().split(/\s+/)))
        if (SCOPES.includes(name)) note([19, `Scope \`${name}\` asked for by name (the spec names no scope)`]);
  }

  private observeError(entry: JournalEntry, tokenRequest: boolean, body: string | Uint8Array, note: (choice: Choice) => void): void {
    const code = errorCode(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    if (code === undefined) return;
    if (tokenRequest) {
      if (code === 'invalid_scope') note([19, 'A scope the OAuth client lacks, or that does not exist, is answered 400 `invalid_scope`']);
      note([69, `The token endpoint answers \`${code}\` (HTTP ${entry.status}) in RFC 6749 §5.2's form \`{ error, error_description }\``]);
      return;
    }
    note([
      25,
      `Error code \`${code}\` with HTTP ${entry.status}, in the error shape \`{ error: { code, message, status, request_id, issues } }\` (the spec lists no error codes)`,
    ]);
    if (code === 'token_expired')
      note([86, "An access token expires `expires_in` seconds after its issue on the simulated clock (by default), which runs apart from the client's own"]);
  }
}

/** The choices the values in a JSON text rely on ({@link VALUE_CHOICES}), one per value found. */
function choicesOfValues(text: string): Choice[] {
  const found: Choice[] = [];
  for (const match of text.matchAll(VALUE_PATTERN)) {
    const choice = VALUE_CHOICES[`${match[1]}=${match[2]}`];
    if (choice !== undefined) found.push(choice);
  }
  return found;
}

/** The code of an error answer, in the API's shape (`error.code`) or RFC 6749's (`error`); undefined when it is neither. */
function errorCode(text: string): string | undefined {
  // Error answers are small; a large body is no error answer of bvs-mock's.
  if (text.length > 256 * 1024 || !text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    const code = typeof parsed.error === 'string' ? parsed.error : (parsed.error as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' && /^[a-z_]{1,40}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}
