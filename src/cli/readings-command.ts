import { Command, Option } from 'commander';
import { READINGS } from '../schemas';

/**
 * The readings as `bvs-mock readings` prints them: for each, its name and fidelity row, then each value
 * with the spec's words for it, the default marked; `json` is an array of `{ name, values, default, row, spec }`.
 */
export function renderReadings(format: 'text' | 'json'): string {
  if (format === 'json') {
    const readings = READINGS.map((reading) => ({
      name: reading.name,
      values: [...reading.values],
      default: reading.default,
      row: reading.row,
      spec: reading.spec,
    }));
    return `${JSON.stringify(readings, null, 2)}\n`;
  }
  const lines: string[] = [];
  for (const reading of READINGS) {
    lines.push(`${reading.name} (docs/fidelity.md row ${reading.row})`);
    const labels = reading.values.map((value) => [value, value === reading.default ? `${value} (default)` : value] as const);
    const width = Math.max(...labels.map(([, label]) => label.length));
    for (const [value, label] of labels) lines.push(`  ${label.padEnd(width)}  ${(reading.spec as Readonly<Record<string, string>>)[value]}`);
    lines.push('');
  }
  lines.push('Play one with --reading NAME=VALUE (bvs-mock serve), readings: in the configuration file, or readings in POST /_mock/sessions.');
  return `${lines.join('\n')}\n`;
}

/** `bvs-mock readings`: where the spec contradicts itself, the readings bvs-mock can play, with the spec's words for each. */
export function readingsCommand(): Command {
  return new Command('readings')
    .description("list the readings of the spec where it contradicts itself, each value with the spec's words (--reading NAME=VALUE plays one)")
    .addOption(new Option('--format <format>', 'text or json (an array of { name, values, default, row, spec })').choices(['text', 'json']).default('text'))
    .action((options: { format: 'text' | 'json' }) => {
      process.stdout.write(renderReadings(options.format));
    });
}
