import { parseScenarioSource } from '../engine/scenarios';
import { createMock } from '../mock/create-mock';
import { mockParts } from '../mock/create-mock';
import { playTree } from '../mock/play-tree';
import type { EngineEvent } from '../engine/engine-event';
import {
  DEFAULT_ORGANIZATION,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedExchange,
  type Recording,
  type RelayedDelivery,
  type ScenarioInput,
} from '../schemas';
import { stringify } from 'yaml';

/** A tree as bvs-mock played it: recordings of its own play, read as a recorded tree is read. */
export interface ReplayedTree {
  /** The main validation of the play. */
  rootId: string;
  /** What `bvs-mock proxy` and `bvs-mock listen` would have recorded of the play: the reads, and each event once. */
  recordings: Recording[];
}

/** The seed of every replay: the same recording replays to the same bytes. */
const REPLAY_SEED = 1;

/**
 * Plays the scenario written from a recorded tree in a bvs-mock of its own (instant clock, default organization, the
 * readings given), and records the play as the proxy and the relay would have: the create's answer, a read of the
 * validation and of each of its batches at the end, and every event the tree emitted with its simulated instant as
 * its arrival; the tree is revalidated at `revalidateAt` (ms after the create) as the recording shows it was. Throws
 * when the scenario does not load or the play cannot start.
 */
export async function replayTree(
  input: ScenarioInput,
  readings: Readonly<Record<string, string>>,
  revalidateAt: readonly number[] = [],
): Promise<ReplayedTree> {
  const loaded = parseScenarioSource({ text: stringify(input), file: `${input.name}.yaml` });
  if (!loaded.ok)
    throw new Error(`the scenario written from the recording does not load: ${loaded.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
  const mock = createMock({ clock: 'instant', seed: REPLAY_SEED, readings });
  try {
    const library = mockParts(mock).world.scenarios;
    // The recorded tree takes the place of a scenario that claims its TIN (a built-in one, when bvs-mock was the upstream).
    const claimed = loaded.value.tins?.map((tin) => library.forTin(tin)).find((owner) => owner !== undefined);
    const scenario = claimed === undefined ? loaded.value : { ...loaded.value, name: claimed.name };
    const added = library.add(scenario, { source: 'recording', override: true });
    if (!added.ok) throw new Error(added.issues.map((issue) => issue.message).join('; '));
    const emitted: EngineEvent[] = [];
    mock.onEvent((event) => emitted.push(event));
    const created = await playTree(mock, scenario, { revalidateAt });
    if (!created.ok) throw new Error(`bvs-mock could not create the validation of the recorded tree: ${created.message}`);
    const rootId = created.value.id;
    const deliveries: RelayedDelivery[] = emitted
      .filter((event) => event.validationId === rootId)
      .map((event, index) => ({
        id: `rly_${index + 1}`,
        path: '/',
        event_type: event.type,
        resource_id: event.resourceId,
        tree_id: rootId,
        headers: {},
        body: event.body,
        arrived_at: event.emittedAt,
        attempt: 1,
        answer: { status: 200, body_excerpt: '', error: null, duration_ms: 0 },
      }));
    const exchanges: RecordedExchange[] = [];
    const read = async (path: string) => exchanges.push(await get(mock, path, exchanges.length + 1));
    await read(`/api/v2/entity_validations/${rootId}`);
    const validation = JSON.parse(exchanges[0]!.answer_body) as { data_source_run_batches?: Array<{ id: string }> };
    for (const batch of validation.data_source_run_batches ?? []) await read(`/api/v2/data_source_run_batches/${batch.id}`);
    const at = mock.now().toISOString();
    const recording = (source: Recording['source']): Recording => ({
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      source,
      peer: 'bvs-mock',
      started_at: at,
      ended_at: at,
      redacted: [],
      exchanges: source === 'proxy' ? exchanges : [],
      deliveries: source === 'listen' ? deliveries : [],
      trees: [
        {
          tree_id: rootId,
          exchanges: source === 'proxy' ? exchanges.map((exchange) => exchange.request_id) : [],
          deliveries: source === 'listen' ? deliveries.map((delivery) => delivery.id) : [],
        },
      ],
    });
    return { rootId, recordings: [recording('proxy'), recording('listen')] };
  } finally {
    mock.dispose();
  }
}

async function get(mock: ReturnType<typeof createMock>, path: string, number: number): Promise<RecordedExchange> {
  const answer = await mock.core.handle({
    method: 'GET',
    path,
    query: new URLSearchParams(),
    headers: { authorization: `Bearer ${DEFAULT_ORGANIZATION.api_keys[0]}` },
    body: Buffer.alloc(0),
    secure: true,
    inProcess: true,
  });
  const at = mock.now().toISOString();
  return {
    request_id: `rpl_${number}`,
    operation: null,
    method: 'GET',
    path,
    status: answer.status,
    request_headers: {},
    request_body: '',
    answer_headers: answer.headers,
    answer_body: typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body).toString('utf8'),
    started_at: at,
    duration_ms: 0,
  };
}
