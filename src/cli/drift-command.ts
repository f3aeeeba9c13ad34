import { existsSync, writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { driftOutcome, driftOf } from '../drift/drift-run';
import { driftSummary, renderDriftReport, type DriftOutputFormat } from '../drift/drift-output';
import { formatOfFile } from '../contract';
import { parseDuration } from '../schemas';
import { readRecordings } from './read-recordings';
import { reading } from './serve-flag-values';

/** The default of `--tolerance`: the recording's instants come from second-precision reckoning where a payload has none. */
const DEFAULT_TOLERANCE = '2s';

interface DriftFlags {
  tolerance: string;
  reading: Record<string, string>;
  report?: string;
  reportFormat?: DriftOutputFormat;
  force: boolean;
}

/**
 * `bvs-mock drift REC...`: holds recordings of the real service against bvs-mock. Exit 0: no drift; 1: drift (each
 * difference with its fidelity row and the reading the recording reads as); 2: the command or a file is wrong;
 * 3: incomplete (a tree could not be played, or the recordings hold none).
 */
export function driftCommand(): Command {
  return new Command('drift')
    .description(
      'play each validation tree of the recordings (bvs-mock proxy --record, bvs-mock listen --record) in bvs-mock and report what differs: shapes, events and their order, timings, and the readings the recordings confirm or refute',
    )
    .argument('<recording...>', 'recording files (one of proxy and one of listen for whole trees)')
    .addOption(new Option('--tolerance <duration>', "how far an event's offset from the create may differ, like 2s or 500ms").default(DEFAULT_TOLERANCE))
    .addOption(
      new Option('--reading <name=value>', 'play this reading of the spec (bvs-mock readings lists them; repeatable), as your suite runs bvs-mock')
        .default({})
        .argParser(reading),
    )
    .addOption(new Option('--report <file>', 'also write the report to FILE (format from its extension: .xml JUnit, .md Markdown, else JSON)'))
    .addOption(new Option('--report-format <format>', 'json, markdown or junit, whatever the extension').choices(['json', 'markdown', 'junit']))
    .addOption(new Option('--force', 'overwrite --report if it exists').default(false))
    .action(async (files: string[], flags: DriftFlags) => {
      process.exitCode = await drift(files, flags);
    });
}

async function drift(files: string[], flags: DriftFlags): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`bvs-mock drift: ${message}\n`);
    return 2;
  };
  const toleranceMs = parseDuration(flags.tolerance);
  if (toleranceMs === undefined || toleranceMs < 0) return fail(`--tolerance ${flags.tolerance}: not a duration; give one like 2s, 500ms or 1m`);
  if (flags.report !== undefined && existsSync(flags.report) && !flags.force) return fail(`--report ${flags.report} exists; give --force to overwrite it`);
  const read = readRecordings(files);
  if (!read.ok) return fail(read.message);
  const report = await driftOf(read.recordings, { files, toleranceMs: Math.round(toleranceMs), readings: flags.reading });
  process.stdout.write(driftSummary(report));
  if (flags.report !== undefined) writeFileSync(flags.report, renderDriftReport(report, flags.reportFormat ?? formatOfFile(flags.report), new Date()));
  const outcome = driftOutcome(report);
  if (outcome === 'incomplete') process.stdout.write('Incomplete: a tree not played is not a pass.\n');
  return outcome === 'none' ? 0 : outcome === 'drift' ? 1 : 3;
}
