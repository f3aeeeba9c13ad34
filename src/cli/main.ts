import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { buildOpenApiDocument, documentToJson, documentToYaml } from '../openapi';
import { validateCommand } from './validate-command';

const VERSION = '0.1.0';

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
    .action((files: string[], options: { schema?: string }) => {
      process.exitCode = validateCommand(files, options);
    });

  program
    .command('serve')
    .description('start the mock (this version prints where the OpenAPI document is)')
    .action(() => {
      const root = join(__dirname, '..', '..');
      process.stdout.write(
        [
          `bvs-mock ${VERSION}`,
          `OpenAPI 3.1 document: ${join(root, 'openapi', 'openapi.yaml')}`,
          `                      ${join(root, 'openapi', 'openapi.json')}`,
          'Print it with `bvs-mock openapi`, check payloads with `bvs-mock validate FILE...`.',
          'The API server is not part of this version; see "Status" in README.md.',
          '',
        ].join('\n'),
      );
    });

  return program;
}

function parseFormat(value: string): 'yaml' | 'json' {
  if (value === 'yaml' || value === 'json') return value;
  throw new InvalidArgumentError('must be yaml or json');
}

/** Runs the command line with `argv` (as `process.argv`). */
export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
