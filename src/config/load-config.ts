import { readRegularFile } from '../files/read-regular-file';
import { parse as parseYaml } from 'yaml';
import { BvsMockConfig, PARSE_OPTIONS, toIssues, type Issue } from '../schemas';

/**
 * Largest configuration file read, in bytes (1 MiB). A configuration lists organizations,
 * credentials, settings and endpoints: a few kilobytes, tens for hundreds of organizations, so a
 * file over 1 MiB is something else (a log, a dump, the wrong path). Parsing costs grow with size
 * (1 MiB of dense YAML: under 2 s and about 130 MB; a 50 MB scenario took 32 s and 2.8 GB), so the
 * size is checked before the file is read. Same limit as a request body (docs/fidelity.md row 26).
 */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** A configuration file that cannot be used: the file, and every problem with its JSON path. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly issues: Issue[],
    options?: { cause?: unknown },
  ) {
    super(issues.map((issue) => `bvs-mock: ${file}: ${issue.path}: ${issue.message}`).join('\n'), options);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and checks a configuration file (YAML or JSON). Without a file, the
 * embedded default: one organization with printed credentials (docs/design.md).
 * Throws {@link ConfigError} naming the file, the path and the reason; a path
 * that is not a regular file (a FIFO, a directory, a device) or a file over
 * {@link MAX_CONFIG_FILE_BYTES} is refused before anything is read.
 */
export function loadConfig(file?: string): BvsMockConfig {
  if (file === undefined) return BvsMockConfig.parse({});
  const read = readRegularFile({
    file,
    limit: MAX_CONFIG_FILE_BYTES,
    expected: 'a configuration file (YAML or JSON)',
    whenTooLarge: 'a configuration is a few kilobytes, so check that --config (or BVS_MOCK_CONFIG) names the right file',
  });
  if (!read.ok) throw new ConfigError(file, [{ path: '$', code: read.code, message: read.message }], { cause: read.cause });
  const { text } = read;
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      file,
      [{ path: '$', code: 'syntax', message: `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}` }],
      { cause: error },
    );
  }
  const result = BvsMockConfig.safeParse(raw ?? {}, PARSE_OPTIONS);
  if (!result.success) throw new ConfigError(file, toIssues(result.error));
  return result.data;
}
