import type { SeenEvent, TreeFacts } from '../proxy/recording-facts';

/** What kind of difference between a recorded tree and bvs-mock's play of it. */
export type TreeCheck = 'event' | 'order' | 'timing' | 'shape';

/** One difference between the recorded tree and bvs-mock's play of the same tree. */
export interface TreeDifference {
  check: TreeCheck;
  /** The event concerned: its type and what it is about (`data_source_run_batch.data_source_run.ready (76086428-5 cl/sii)`), or its type alone for a shape. */
  subject: string;
  /** Where in the payload, as a JSON path (`$.data_source_run_batch.child_batches[*].data_source_runs`); null for an event, order or timing. */
  path: string | null;
  /** What bvs-mock does. */
  bvs_mock: string;
  /** What the recording shows. */
  recording: string;
  /** The row of docs/fidelity.md it concerns, where one row holds the choice. */
  row: number | null;
}

/** Rows of docs/fidelity.md that hold bvs-mock's choice of an event's place in the order. */
const ORDER_ROWS: Readonly<Record<string, number>> = {
  'entity_validation.stakeholder.created': 24,
  'entity_validation.formation.ready': 24,
};

/** Rows of docs/fidelity.md that hold bvs-mock's choice of a payload's shape, where the spec does not show it. */
const SHAPE_ROWS: Readonly<Record<string, number>> = {
  'data_source_run_batch.child_batches_ready': 21,
  'data_source_run_batch.consolidated_report_ready': 22,
  'information_request.status_updated': 22,
  'information_request.analysis_success': 22,
  'information_request.evaluated': 22,
  'information_request.all_items_collected': 7,
  'information_request.requestable_item.extracted': 22,
  'information_request.assignment.updated': 22,
};

/** A field the recording has and bvs-mock never sends: beyond the contract, which row 89 (tolerance) is about. */
const UNKNOWN_FIELD_ROW = 89;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The resource an event carries: its one key beside `type`. */
function resourceOf(event: SeenEvent): Json {
  const resource = Object.entries(event.body).find(([key]) => key !== 'type')?.[1];
  return isObject(resource) ? resource : {};
}

/** The TIN of the entity a validation or batch id belongs to, as the tree's facts tell. */
function tinOf(facts: TreeFacts, id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const entity = facts.entities.get(id) ?? facts.entities.get(facts.batches.get(id)?.entity_validation_id ?? '');
  return entity?.tin;
}

/** The TIN of the entity an event is about, as far as its payload and the tree's facts tell. */
function entityTin(facts: TreeFacts, event: SeenEvent): string | undefined {
  const resource = resourceOf(event);
  return text(resource.tin) ?? tinOf(facts, resource.entity_validation_id) ?? tinOf(facts, resource.data_source_run_batch_id) ?? tinOf(facts, resource.id);
}

/**
 * The tree's events with those of one instant grouped by entity, each entity's in the order sent: two entities' events
 * due at the same instant have no order of their own (two timers due at once; the relay checks the rules that order
 * one entity's events after another's), so only each entity's own order is compared.
 */
function canonical(facts: TreeFacts): TreeFacts {
  const keyed = facts.events.map((event, index) => ({ event, index, tin: entityTin(facts, event) ?? '' }));
  keyed.sort((a, b) => a.event.at - b.event.at || (a.tin < b.tin ? -1 : a.tin > b.tin ? 1 : 0) || a.index - b.index);
  return { ...facts, events: keyed.map((item) => item.event) };
}

/**
 * What an event is about, the same in a recording and in bvs-mock's play though their ids differ: the entity's TIN,
 * and the run's type, the request's status, the item's name or the reviewer where the type has one.
 */
function subjectOf(facts: TreeFacts, event: SeenEvent): string {
  const resource = resourceOf(event);
  const tin = entityTin(facts, event);
  const parts: Array<string | undefined> = [tin];
  if (event.type === 'data_source_run_batch.data_source_run.ready') parts.push(text(resource.type));
  else if (event.type === 'information_request.status_updated') parts.push(text(resource.name), text(resource.status));
  else if (event.type === 'information_request.assignment.updated') parts.push(text(resource.reviewer_email), text(resource.status));
  else if (event.type.startsWith('information_request.')) parts.push(text(resource.name));
  const about = parts.filter((part) => part !== undefined).join(' ');
  return about === '' ? event.type : `${event.type} (${about})`;
}

/** `m:ss` after the create, to the millisecond when it is not whole. */
function offset(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const whole = Math.abs(ms);
  const minutes = Math.floor(whole / 60_000);
  const seconds = Math.floor((whole % 60_000) / 1000);
  const rest = whole % 1000;
  return `${sign}${minutes}:${String(seconds).padStart(2, '0')}${rest === 0 ? '' : `.${String(rest).padStart(3, '0')}`}`;
}

/** The JSON paths of a value's fields, every item of a list as `[*]`. */
function fieldPaths(value: unknown, path = '$', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) fieldPaths(item, `${path}[*]`, out);
  else if (isObject(value))
    for (const [key, item] of Object.entries(value)) {
      const here = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
      out.add(here);
      fieldPaths(item, here, out);
    }
  return out;
}

/** The paths of `paths` whose parent is not itself among them: a whole unknown object is one difference. */
function topmost(paths: readonly string[]): string[] {
  const all = new Set(paths);
  return paths.filter((path) => {
    for (let cut = path.length - 1; cut > 1; cut--) if ((path[cut] === '.' || path[cut] === '[') && all.has(path.slice(0, cut))) return false;
    return true;
  });
}

/** The longest common subsequence of two lists of keys, as pairs of indexes. */
function commonSubsequence(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const pairs: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** The instant the tree started: its main validation's `created_at`, else its first event's. */
function startOf(facts: TreeFacts): number {
  const created = Date.parse(facts.entities.get(facts.rootId)?.created_at ?? '');
  return Number.isNaN(created) ? (facts.events[0]?.at ?? 0) : created;
}

/**
 * Compares a recorded tree with bvs-mock's play of it: which events each sent (by type and what they are about),
 * in which order (each entity's own, at one instant), at which offset from the create (a difference beyond `toleranceMs`), and the fields of each pair
 * of events that match (a field one sends and the other does not, once per event type and path).
 */
export function compareTrees(recordedTree: TreeFacts, playedTree: TreeFacts, toleranceMs: number): TreeDifference[] {
  const recorded = canonical(recordedTree);
  const played = canonical(playedTree);
  const differences: TreeDifference[] = [];
  const recordedKeys = recorded.events.map((event) => subjectOf(recorded, event));
  const playedKeys = played.events.map((event) => subjectOf(played, event));
  const recordedStart = startOf(recorded);
  const playedStart = startOf(played);
  const at = (facts: TreeFacts, start: number, index: number) => offset(facts.events[index]!.at - start);
  const pairs = commonSubsequence(recordedKeys, playedKeys);
  const matchedRecorded = new Set(pairs.map(([i]) => i));
  const matchedPlayed = new Set(pairs.map(([, j]) => j));
  const before = (keys: readonly string[], matched: ReadonlySet<number>, index: number) => {
    for (let earlier = index - 1; earlier >= 0; earlier--) if (matched.has(earlier)) return keys[earlier]!;
    return 'the create';
  };
  const unmatchedPlayed = playedKeys.map((key, j) => (matchedPlayed.has(j) ? undefined : key));
  const moved: Array<[number, number]> = [];
  recordedKeys.forEach((key, i) => {
    if (matchedRecorded.has(i)) return;
    const j = unmatchedPlayed.indexOf(key);
    const type = recorded.events[i]!.type;
    if (j >= 0) {
      unmatchedPlayed[j] = undefined;
      moved.push([i, j]);
      differences.push({
        check: 'order',
        subject: key,
        path: null,
        bvs_mock: `sent after ${before(playedKeys, matchedPlayed, j)}`,
        recording: `sent after ${before(recordedKeys, matchedRecorded, i)}`,
        row: ORDER_ROWS[type] ?? null,
      });
    } else
      differences.push({
        check: 'event',
        subject: key,
        path: null,
        bvs_mock: 'does not send it',
        recording: `sent at ${at(recorded, recordedStart, i)}`,
        row: ORDER_ROWS[type] ?? null,
      });
  });
  unmatchedPlayed.forEach((key, j) => {
    if (key === undefined) return;
    differences.push({
      check: 'event',
      subject: key,
      path: null,
      bvs_mock: `sends it at ${at(played, playedStart, j)}`,
      recording: 'not sent',
      row: ORDER_ROWS[played.events[j]!.type] ?? null,
    });
  });
  const shapes = new Map<string, TreeDifference>();
  for (const [i, j] of [...pairs, ...moved]) {
    const gap = recorded.events[i]!.at - recordedStart - (played.events[j]!.at - playedStart);
    if (Math.abs(gap) > toleranceMs)
      differences.push({
        check: 'timing',
        subject: recordedKeys[i]!,
        path: null,
        bvs_mock: `at ${at(played, playedStart, j)}`,
        recording: `at ${at(recorded, recordedStart, i)} (${gap > 0 ? 'later' : 'earlier'} by ${offset(Math.abs(gap))}, beyond the tolerance of ${offset(toleranceMs)})`,
        row: null,
      });
    compareShapes(recorded.events[i]!, played.events[j]!, shapes);
  }
  return [...differences, ...shapes.values()];
}

/** Adds, once per event type and path, the fields one of a pair of matching events has and the other has not. */
function compareShapes(recorded: SeenEvent, played: SeenEvent, shapes: Map<string, TreeDifference>): void {
  const mine = fieldPaths(played.body);
  const theirs = fieldPaths(recorded.body);
  const add = (path: string, theyHaveIt: boolean) => {
    const key = `${recorded.type}\u0000${path}\u0000${theyHaveIt}`;
    if (shapes.has(key)) return;
    shapes.set(key, {
      check: 'shape',
      subject: recorded.type,
      path,
      bvs_mock: theyHaveIt ? 'does not send this field' : 'sends this field',
      recording: theyHaveIt ? 'has it' : 'does not have it',
      row: SHAPE_ROWS[recorded.type] ?? (theyHaveIt ? UNKNOWN_FIELD_ROW : null),
    });
  };
  for (const path of topmost([...theirs].filter((path) => !mine.has(path)))) add(path, true);
  for (const path of topmost([...mine].filter((path) => !theirs.has(path)))) add(path, false);
}

/** The key a difference is known by across plays of the same tree under other readings. */
export function differenceKey(difference: TreeDifference): string {
  return [difference.check, difference.subject, difference.path ?? '', difference.bvs_mock.startsWith('sends') ? 'mine' : 'theirs'].join('\u0000');
}
