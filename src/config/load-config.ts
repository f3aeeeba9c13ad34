import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { BvsMockConfig, toIssues, type Issue } from '../schemas';

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
 * embedded default: one organization with printed credentials (DESIGN.md).
 * Throws {@link ConfigError} naming the file, the path and the reason.
 */
export function loadConfig(file?: string): BvsMockConfig {
  if (file === undefined) return BvsMockConfig.parse({});
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError(file, [{ path: '$', code: 'unreadable', message: `cannot read the file (${code})` }], { cause: error });
  }
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(file, [{ path: '$', code: 'syntax', message: `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}` }], { cause: error });
  }
  const result = BvsMockConfig.safeParse(raw ?? {});
  if (!result.success) throw new ConfigError(file, toIssues(result.error));
  return result.data;
}
