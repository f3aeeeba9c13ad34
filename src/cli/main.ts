import { Command, InvalidArgumentError, Option } from 'commander';
import { ScenarioLibrary } from '../engine/scenarios';
import { buildOpenApiDocument, documentToJson, documentToYaml } from '../openapi';
import { checkReceiverCommand } from './check-receiver-command';
import { listenCommand } from './listen-command';
import { playCommand } from './play-command';
import { printable } from './printable';
import { proxyCommand } from './proxy-command';
import { readingsCommand } from './readings-command';
import { scenarioCommand } from './scenario-command';
import { driftCommand } from './drift-command';
import { serveCommand } from './serve-command';
import { validateCommand } from './validate-command';
import { VERSION } from '../version';

/** Builds the `bvs-mock` command line. Actions return exit codes through `process.exitCode`. */
export function buildProgram(): Command {
  const program = new Command('bvs-mock')
    .description('Mock server and contract test harness for the Business Validation Service')
    .version(VERSION)
    .showHelpAfterError();

  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document (paths, security, the 12 webhooks)')
    .option('--format <format>', 'yaml or json', parseFormat, 'yaml')
    .action((options: { format: 'yaml' | 'json' }) => {
      const document = buildOpenApiDocument();
      process.stdout.write(options.format === 'json' ? documentToJson(document) : documentToYaml(document));
    });

  program
    .command('validate')
    .description('validate payloads (webhook bodies, API responses, fixtures); exit 1 with JSON paths on error')
    .argument('<files...>', '.json, .ndjson/.jsonl (one payload a line) or .yaml files')
    .option('--schema <name>', 'schema to use (EntityValidation, DataSourceRunBatch, an event type, ...); events are recognised by "type" without it')
    .option('--strict', 'reject fields the contract does not list in what the service sends (tolerated by default, as a client must)')
    .action((files: string[], options: { schema?: string; strict?: boolean }) => {
      process.exitCode = validateCommand(files, options);
    });

  program.addCommand(serveCommand(VERSION));
  program.addCommand(proxyCommand());
  program.addCommand(playCommand());
  program.addCommand(checkReceiverCommand());
  program.addCommand(readingsCommand());
  program.addCommand(listenCommand());
  program.addCommand(scenarioCommand());
  program.addCommand(driftCommand());

  program
    .command('scenarios')
    .description('list the scenarios and the TINs that select them')
    .addOption(
      new Option('--scenarios <dir>', 'directory of scenario files, added to the built-in library (repeatable)')
        .env('BVS_MOCK_SCENARIOS')
        .default([])
        .argParser((value: string, previous: string[]) => [...previous, ...value.split(',').filter(Boolean)]),
    )
    .action((options: { scenarios: string[] }) => {
      const library = ScenarioLibrary.builtIn();
      for (const dir of options.scenarios) library.loadDirectory(dir);
      for (const scenario of library.list()) {
        process.stdout.write(`${scenario.name.padEnd(26)} ${scenario.tins.join(', ').padEnd(24)} ${scenario.description.replace(/\s+/g, ' ').trim()}\n`);
      }
    });

  return program;
}

function parseFormat(value: string): 'yaml' | 'json' {
  if (value === 'yaml' || value === 'json') return value;
  throw new InvalidArgumentError('must be yaml or json');
}

/** Runs the command line with `argv` (as `process.argv`). */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    // What stops a command may quote a user's file (a scenario's key, a configuration value, a file name): every line
    // goes to the terminal through printable, so no file can clear the screen or forge a line of output.
    if (error instanceof Error) error.message = error.message.split('\n').map(printable).join('\n');
    throw error;
  }
}
