import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadScenarioFile } from '../../src/engine/scenarios';
import { mockParts } from '../../src/mock/create-mock';
import { scenarioFromRecording } from '../../src/proxy/recording-scenario';
import { driftOf } from '../../src/drift/drift-run';
import { SCENARIOS } from '../../src/testing';
import { recordPlay, type RecordedPlay } from '../support/recording-rig';

// A recording of each built-in scenario, through proxy and listen, becomes a scenario file that plays the same
// events in the same order at the same simulated offsets.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bvs-recording-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Each event's type and simulated offset from the create, in ms. */
function timeline(play: RecordedPlay): string[] {
  const start = Date.parse(play.createdAt);
  return play.emitted.map((event) => `${Date.parse(event.emitted_at) - start}ms ${event.type}`);
}

/** The speed of the realtime clock of the trees whose recordings date some events by their arrival. */
const PACED: Record<string, number> = { 'main-definitive-error': 10, 'information-request': 10 };

test.each(Object.values(SCENARIOS).map((scenario) => [scenario.name, scenario]))(
  'the recording of %s becomes a scenario file that plays the same events at the same offsets, and shows no drift',
  async (_name, { name, tin, country }) => {
    // A run that fails for good carries no timestamp of its end (succeeded_at is null): where it is not its batch's last
    // change, only its arrival time tells when, so that tree plays on a clock that runs at a steady pace.
    // Nor does an information request's after-evaluation, the last event of its tree: its arrival after the last timed
    // event, at the pace the arrivals kept before, tells when.
    const upstream = PACED[name] === undefined ? {} : { clock: 'realtime' as const, speed: PACED[name] };
    const recorded = await recordPlay({ tin, country, upstream });
    const input = scenarioFromRecording([recorded.proxy, recorded.listen], { name });
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, stringify(input));
    const loaded = loadScenarioFile(file);
    if (!loaded.ok) throw new Error(loaded.issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n'));
    // Played in place of the built-in scenario of that name, on a fresh upstream.
    const replayed = await recordPlay({ tin, country, prepare: (upstream) => mockParts(upstream).world.scenarios.loadDirectory(dir, { override: true }) });
    expect(timeline(replayed)).toEqual(timeline(recorded));
    expect(timeline(recorded).length).toBeGreaterThan(3);
    // bvs-mock drift over the same recording (an identical upstream): nothing differs, and the tree is played whole.
    const report = await driftOf([recorded.proxy, recorded.listen], { files: [], toleranceMs: 2_000 });
    expect(report.differences).toEqual([]);
    expect(report.trees.map((tree) => [tree.not_played, tree.events_played])).toEqual([[null, recorded.emitted.length]]);
    // A main run that fails for good plays otherwise under the other reading of row 31: the recording confirms bvs-mock's.
    if (name === 'main-definitive-error') expect(report.confirmations.map((c) => `${c.row} ${c.choice}`)).toContain('31 ready-on-main-failure=sent');
  },
);
