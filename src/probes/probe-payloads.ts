import { createClock } from '../clock';
import { OrganizationRegistry } from '../config';
import { Engine, IdSource } from '../engine';
import { ScenarioLibrary, generateScenario } from '../engine/scenarios';
import { UrlSigner } from '../reports/url-signer';
import { BvsMockConfig } from '../schemas';
import { ID_PREFIXES, type EventType } from '../schemas';

/** A webhook body as bvs-mock sends it: `type` and one resource key. */
export type ProbeBody = { type: EventType } & Record<string, unknown>;

/** Real payloads of the built-in scenarios, by what a probe needs of them. */
export interface ProbePayloads {
  /** The first event of each of the 12 types. */
  byType: ReadonlyMap<EventType, ProbeBody>;
  /** happy-partners' `data_source_run_batch.ready`, with partners still running (`runs_succeeded: false`). */
  partialReady: ProbeBody;
  /** happy-partners' events, in emission order (a tree: ready, partners' runs, child batches, report). */
  happyPartners: readonly ProbeBody[];
  /** large-tree's `ready` and `child_batches_ready` (50 partners). */
  largeTree: { ready: ProbeBody; childBatchesReady: ProbeBody };
}

/** Scenarios whose events cover the 12 types between them, plus the large tree. */
const SOURCES = ['happy-partners', 'cl-formation', 'information-request', 'large-tree'] as const;

/** The seed of the probe payloads: fixed, so two checks of the same receiver send the same bytes. */
const PROBE_SEED = 0x0b5e;

/**
 * Plays the source scenarios on an instant clock of its own (no endpoint, nothing delivered) and keeps the
 * bodies the engine emitted: the probes send what bvs-mock sends, not hand-written fixtures.
 */
export async function probePayloads(): Promise<ProbePayloads> {
  // A manual clock of its own, run to the end of each play: nothing is delivered, so nothing is waited for.
  const clock = createClock({ mode: 'manual', start: Date.parse('2026-01-15T10:00:00Z') });
  const registry = new OrganizationRegistry(BvsMockConfig.parse({}));
  const scenarios = ScenarioLibrary.builtIn();
  const engine = new Engine({
    clock,
    ids: new IdSource(PROBE_SEED, () => clock.now()),
    scenarios,
    generate: generateScenario,
    signer: new UrlSigner(`bvs-mock:${PROBE_SEED}`, 'https://127.0.0.1:4010'),
    settings: (id) => registry.settings(id),
  });
  const bodies = new Map<string, ProbeBody[]>();
  let playing = '';
  const unsubscribe = engine.subscribe((event) => bodies.get(playing)!.push(structuredClone(event.body) as ProbeBody), { readsBodyAtOnce: true });
  try {
    for (const name of SOURCES) {
      playing = name;
      bodies.set(name, []);
      const scenario = scenarios.byName(name)!;
      const created = engine.createValidation({
        organizationId: registry.defaultId,
        request: { tin: scenario.tins?.[0] ?? scenario.entity.tin, country: scenario.entity.country },
        scenarioName: name,
      });
      if (!created.ok) throw new Error(`bvs-mock: the probe scenario ${name} did not start: ${created.message}`);
      clock.runAll();
    }
  } finally {
    unsubscribe();
    clock.dispose();
  }
  const all = SOURCES.flatMap((name) => bodies.get(name)!);
  const byType = new Map<EventType, ProbeBody>();
  for (const body of all) if (!byType.has(body.type)) byType.set(body.type, body);
  const happyPartners = bodies.get('happy-partners')!;
  const large = bodies.get('large-tree')!;
  const find = (list: ProbeBody[], type: EventType) => {
    const found = list.find((body) => body.type === type);
    if (!found) throw new Error(`bvs-mock: the probe scenarios emitted no ${type}`);
    return found;
  };
  return {
    byType,
    partialReady: find(happyPartners, 'data_source_run_batch.ready'),
    happyPartners,
    largeTree: { ready: find(large, 'data_source_run_batch.ready'), childBatchesReady: find(large, 'data_source_run_batch.child_batches_ready') },
  };
}

const ID_PATTERN = new RegExp(`^(${Object.values(ID_PREFIXES).join('|')})_([A-Za-z0-9_-]{1,64})$`);

/**
 * A copy of `body` whose ids all carry `tag` (`evl_probe1x...`), so a probe never names a resource a real
 * delivery did, and two probes with different tags name different ones. Ids stay valid: same prefix, a
 * suffix of letters and digits of at most 64 characters.
 */
export function withProbeIds<T>(body: T, tag: string): T {
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const match = ID_PATTERN.exec(value);
      return match ? `${match[1]}_probe${tag}x${match[2]}`.slice(0, match[1]!.length + 1 + 64) : value;
    }
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visit(item)]));
    return value;
  };
  return visit(body) as T;
}
