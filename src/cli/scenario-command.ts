import { existsSync, writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import { parseScenarioSource, ScenarioLibrary } from '../engine/scenarios';
import { scenarioFromRecording } from '../proxy/recording-scenario';
import { ScenarioName } from '../schemas';
import { readRecordings } from './read-recordings';

interface FromRecordingFlags {
  name: string;
  tree?: string;
  out?: string;
  force: boolean;
}

/** `bvs-mock scenario from-recording REC... --name NAME`: a recorded tree as a scenario file. */
export function scenarioCommand(): Command {
  const command = new Command('scenario').description('work with scenario files');
  command.addCommand(
    new Command('from-recording')
      .description(
        'write a scenario file (YAML) that plays the tree of the recordings given (`bvs-mock proxy --record`, `bvs-mock listen --record`; one of each for a whole tree)',
      )
      .argument('<recording...>', 'recording files')
      .addOption(new Option('--name <name>', 'required: the scenario name, kebab-case').makeOptionMandatory())
      .addOption(new Option('--tree <id>', 'the main validation (evl_...) of the tree to write, when the recordings hold several'))
      .addOption(new Option('--out <file>', 'write the scenario to FILE (default: standard output)'))
      .addOption(new Option('--force', 'overwrite --out if it exists').default(false))
      .action((files: string[], flags: FromRecordingFlags) => {
        process.exitCode = fromRecording(files, flags);
      }),
  );
  return command;
}

function fromRecording(files: string[], flags: FromRecordingFlags): number {
  const fail = (message: string) => {
    process.stderr.write(`bvs-mock scenario from-recording: ${message}\n`);
    return 2;
  };
  if (!ScenarioName.safeParse(flags.name).success) return fail(`--name ${flags.name}: must be kebab-case, like recorded-partners`);
  const read = readRecordings(files);
  if (!read.ok) return fail(read.message);
  const { recordings } = read;
  let text: string;
  try {
    text = stringify(scenarioFromRecording(recordings, { name: flags.name, tree: flags.tree }));
  } catch (error) {
    return fail((error as Error).message);
  }
  // Checked as the loader of --scenarios directories checks a file: what is written loads.
  const checked = parseScenarioSource({ text, file: flags.out ?? `${flags.name}.yaml` });
  if (!checked.ok) return fail(`the scenario written does not load: ${checked.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
  // Beside the built-in scenarios, as `serve --scenarios` loads it: a name or TIN one of them has is refused there.
  const beside = ScenarioLibrary.builtIn().add(checked.value, { source: flags.out ?? 'the recording' });
  if (!beside.ok)
    process.stderr.write(
      `bvs-mock scenario from-recording: note: ${beside.issues.map((issue) => issue.message).join('; ')}; serve --scenarios refuses the file until its name, or its tins and entity.tin, are changed\n`,
    );
  if (flags.out === undefined) {
    process.stdout.write(text);
    return 0;
  }
  if (existsSync(flags.out) && !flags.force) return fail(`--out ${flags.out} exists; give --force to overwrite it`);
  writeFileSync(flags.out, text);
  process.stdout.write(`bvs-mock scenario from-recording: ${flags.name} written to ${flags.out}\n`);
  return 0;
}
