import { writeFileSync, renameSync } from 'node:fs';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordedExchange, type Recording, type RelayedDelivery } from '../schemas';
import type { Exchange } from './exchange';
import { parseRedactPath, redact } from './redact-path';

/** Options of {@link Recorder}. */
export interface RecorderOptions {
  source: Recording['source'];
  /** The upstream (proxy) or the receiver (listen). */
  peer: string;
  /** JSON paths to mask in every body (`--redact`); a bad one throws at once. */
  redact?: readonly string[];
  /** Real time; default `Date.now`. */
  now?: () => number;
}

/** Ids of the service's resources, by which exchanges and deliveries are put into trees. */
const RESOURCE_ID = /\b(?:evl|dsrb|dsr|irq|rlal|frm|doc|asg|rqi)_[0-9A-Za-z]+/g;

/**
 * What `--record FILE` keeps: each exchange of `bvs-mock proxy` or each delivery of `bvs-mock listen`, as it came,
 * with the `--redact` paths masked in its bodies. Credentials never reach it: the proxy's exchanges and the relay's
 * records leave them out already, and the recorder masks them again in bodies (a token endpoint's answer).
 */
export class Recorder {
  private readonly exchanges: RecordedExchange[] = [];
  private readonly deliveries: RelayedDelivery[] = [];
  private readonly paths: ReturnType<typeof parseRedactPath>[];
  private readonly now: () => number;
  private readonly startedAt: string;

  constructor(private readonly options: RecorderOptions) {
    this.paths = (options.redact ?? []).map(parseRedactPath);
    this.now = options.now ?? Date.now;
    this.startedAt = new Date(this.now()).toISOString();
  }

  addExchange(exchange: Exchange): void {
    this.exchanges.push({
      request_id: exchange.requestId,
      operation: exchange.operation,
      method: exchange.method,
      path: exchange.path,
      status: exchange.status,
      request_headers: exchange.requestHeaders,
      request_body: this.redactText(exchange.requestBody),
      answer_headers: exchange.answerHeaders,
      answer_body: this.redactText(exchange.answerBody),
      started_at: exchange.startedAt,
      duration_ms: exchange.durationMs,
    });
  }

  addDelivery(delivery: RelayedDelivery): void {
    this.deliveries.push({ ...delivery, body: this.redactValue(delivery.body) });
  }

  /** The recording as it stands. */
  recording(): Recording {
    return {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      source: this.options.source,
      peer: this.options.peer,
      started_at: this.startedAt,
      ended_at: new Date(this.now()).toISOString(),
      redacted: [...(this.options.redact ?? [])],
      exchanges: [...this.exchanges],
      deliveries: [...this.deliveries],
      trees: treesOf(this.exchanges, this.deliveries),
    };
  }

  /** Writes the recording to FILE whole (a file beside it, then renamed), so a reader never sees half of one. */
  write(file: string): void {
    const partial = `${file}.partial`;
    writeFileSync(partial, `${JSON.stringify(this.recording(), null, 2)}\n`);
    renameSync(partial, file);
  }

  private redactValue(value: unknown): unknown {
    return this.paths.reduce((current, steps) => redact(current, steps), value);
  }

  private redactText(text: string): string {
    if (this.paths.length === 0 || text.length === 0) return text;
    try {
      return JSON.stringify(this.redactValue(JSON.parse(text)));
    } catch {
      return text;
    }
  }
}

/**
 * The trees: ids that appear in one body belong together; a tree is named by its main validation, the first `evl_`
 * a create's answer gives, or the relay's `tree_id`, else the first `evl_` seen.
 */
function treesOf(exchanges: readonly RecordedExchange[], deliveries: readonly RelayedDelivery[]): Recording['trees'] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root && parent.has(root)) root = parent.get(root)!;
    return root;
  };
  const join = (ids: string[]) => {
    for (const id of ids) if (!parent.has(id)) parent.set(id, id);
    for (const id of ids.slice(1)) parent.set(find(id), find(ids[0]!));
  };
  const roots = new Set<string>();
  const idsOf = (text: string) => [...new Set(text.match(RESOURCE_ID) ?? [])];
  const items: { kind: 'exchanges' | 'deliveries'; id: string; ids: string[] }[] = [];
  for (const exchange of exchanges) {
    const ids = idsOf(`${exchange.path} ${exchange.answer_body}`);
    if (exchange.method === 'POST' && exchange.operation === 'createEntityValidation') {
      const created = /"id":"(evl_[0-9A-Za-z]+)"/.exec(exchange.answer_body)?.[1];
      if (created !== undefined) roots.add(created);
    }
    join(ids);
    items.push({ kind: 'exchanges', id: exchange.request_id, ids });
  }
  for (const delivery of deliveries) {
    const ids = idsOf(JSON.stringify(delivery.body));
    if (delivery.tree_id !== null) {
      roots.add(delivery.tree_id);
      ids.push(delivery.tree_id);
    }
    join(ids);
    items.push({ kind: 'deliveries', id: delivery.id, ids });
  }
  const trees = new Map<string, Recording['trees'][number]>();
  const nameOf = new Map<string, string>();
  for (const root of roots) if (!nameOf.has(find(root))) nameOf.set(find(root), root);
  for (const item of items) {
    if (item.ids.length === 0) continue;
    const component = find(item.ids[0]!);
    const name = nameOf.get(component) ?? item.ids.find((id) => id.startsWith('evl_'));
    if (name === undefined) continue;
    nameOf.set(component, name);
    const tree = trees.get(name) ?? { tree_id: name, exchanges: [], deliveries: [] };
    tree[item.kind].push(item.id);
    trees.set(name, tree);
  }
  return [...trees.values()];
}
