import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { loadScenarioFile } from '../../src/engine/scenarios';
import { mockParts } from '../../src/mock/create-mock';
import { treeFacts } from '../../src/proxy/recording-facts';
import { scenarioFromRecording } from '../../src/proxy/recording-scenario';
import { SCENARIOS } from '../../src/testing';
import { recordPlay, type RecordedPlay } from '../support/recording-rig';

// How a recorded information request and a recorded wait for input become a scenario file.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bvs-recording-request-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const builtIn = (name: string) => Object.values(SCENARIOS).find((scenario) => scenario.name === name)!;

/** Plays `yaml` in place of the built-in information-request scenario (its TIN) and records it. */
async function recordScenario(yaml: string): Promise<RecordedPlay> {
  writeFileSync(join(dir, 'played.yaml'), yaml);
  const { tin, country } = builtIn('information-request');
  return recordPlay({ tin, country, prepare: (upstream) => mockParts(upstream).world.scenarios.loadDirectory(dir, { override: true }) });
}

/** The scenario file written from a recording, as the loader reads it back. */
function written(recorded: RecordedPlay) {
  const file = join(dir, 'written.yaml');
  writeFileSync(file, stringify(scenarioFromRecording([recorded.proxy, recorded.listen], { name: 'written' })));
  const loaded = loadScenarioFile(file);
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n'));
  return parse(stringify(scenarioFromRecording([recorded.proxy, recorded.listen], { name: 'written' }))) as Record<string, any>;
}

const UNFINISHED = `
name: information-request
description: An information request played up to a reviewer's assignment, never evaluated.
tins: ["76842059-9"]
entity:
  tin: 76842059-9
  country: CL
  category: business
  name: Servicios Digitales Elqui SpA
  runs:
    - { type: cl/sii, outcomes: [{ succeeded: 25s }] }
information_request:
  name: Alta de cliente
  template_id: irt_customer
  always: true
  items:
    - { name: Certificado, kind: document, extract_after: 4s, extracted_data: { status: vigente } }
    - { name: Balance, kind: document, extract_after: 6s, extraction_fails: true }
    - { name: Descripción, kind: text, extract_after: 2s, extracted_data: { summary: Software } }
  steps:
    - { after: 5s, submit: [Certificado] }
    - { after: 7s, submit: all }
    - { after: 10s, analyze: { information_sheet: { risk: low }, chat: [{ role: assistant, content: Consistente. }] } }
    - { after: 3s, assign: { reviewer_email: ana@example.com, role: reviewer } }
`;

test('a request that never reaches evaluation writes its items and steps up to where it got, and no evaluate step', async () => {
  const request = written(await recordScenario(UNFINISHED)).information_request;
  expect(request).toEqual({
    name: 'Alta de cliente',
    template_id: 'irt_customer',
    always: true,
    items: [
      { name: 'Certificado', kind: 'document', extract_after: '0s', extracted_data: { status: 'vigente' } },
      { name: 'Balance', kind: 'document', extract_after: '6s', extraction_fails: true, extracted_data: {} },
      { name: 'Descripción', kind: 'text', extract_after: '2s', extracted_data: { summary: 'Software' } },
    ],
    steps: [
      // The item submitted alone at 0:05 is seen submitted (its updated_at) in no payload: dated by its extraction (0:09).
      { after: '9s', submit: ['Certificado'] },
      { after: '3s', submit: 'all' },
      { after: '10s', analyze: { information_sheet: { risk: 'low' }, chat: [{ role: 'assistant', content: 'Consistente.' }] } },
      { after: '3s', assign: { reviewer_email: 'ana@example.com', role: 'reviewer' } },
    ],
  });
});

test('a request that stopped short (an item submitted alone, a failed extraction, no evaluation) plays again with the same events at the same offsets', async () => {
  const recorded = await recordScenario(UNFINISHED);
  writeFileSync(join(dir, 'played.yaml'), stringify({ ...written(recorded), name: 'information-request' }));
  rmSync(join(dir, 'written.yaml'));
  const { tin, country } = builtIn('information-request');
  const replayed = await recordPlay({ tin, country, prepare: (upstream) => mockParts(upstream).world.scenarios.loadDirectory(dir, { override: true }) });
  const timeline = (play: RecordedPlay) => play.emitted.map((event) => `${Date.parse(event.emitted_at) - Date.parse(play.createdAt)}ms ${event.type}`);
  expect(timeline(replayed)).toEqual(timeline(recorded));
});

test('an event that fires again for the same request (status_updated, assignment.updated) is an event of its own, not a retry', async () => {
  const { tin, country } = builtIn('information-request');
  const recorded = await recordPlay({ tin, country });
  const facts = treeFacts([recorded.proxy, recorded.listen], recorded.listen.trees[0]!.tree_id);
  expect(facts.events.map((event) => event.type)).toEqual(recorded.emitted.map((event) => event.type));
});

test('a run seen waiting for input waits from its batch’s last change then, and its input comes once the tree showed nothing more', async () => {
  const { tin, country } = builtIn('missing-input-data');
  const recorded = await recordPlay({ tin, country });
  const runs = written(recorded).entity.runs as Array<{ type: string; outcomes: unknown[] }>;
  // Waiting since 0:15 shows in no payload: the first that shows it (stakeholder.created, 0:30) is its batch's last
  // change then. The input came at 0:55 (the partner's run, the last change the rig's read shows); cl/sii at 1:15.
  expect(runs.find((run) => run.type === 'cl/sii')!.outcomes).toEqual([{ missing_input_data: '30s' }, { succeeded: '20s' }]);
});
