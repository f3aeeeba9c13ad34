import { z } from './zod';

/**
 * Readings (docs/fidelity.md): where the spec contradicts itself, bvs-mock plays one reading by default and
 * the other on request, so a client can run its suite under each and find out whether it depends on the
 * choice. Each reading names its values, the default (bvs-mock's choice, the one its fidelity row
 * describes), the row, and for each value the spec's own words that support it.
 */
export const READINGS = [
  {
    name: 'ready-on-main-failure',
    row: 31,
    values: ['sent', 'withheld'],
    default: 'sent',
    spec: {
      sent: '§6 Event order 2: "`data_source_run_batch.ready` fires when all runs of the main entity complete." It is sent once every run of the main entity is terminal, with `runs_succeeded: false` when one failed definitively (receivers "check `runs_succeeded` before using results").',
      withheld:
        '§6 Triggers: `data_source_run_batch.ready`: "all runs of the main entity completed successfully." It is not sent for a main batch whose runs did not all succeed; `child_batches_ready` and the automatic report stay suppressed as under `sent` (row 32), so that validation sends no batch-level event; the report can still be generated on demand.',
    },
  },
] as const;

/** One reading of {@link READINGS}. */
export type Reading = (typeof READINGS)[number];
/** The name of a reading, like `ready-on-main-failure`. */
export type ReadingName = Reading['name'];
/** The value of every reading a world plays. */
export type Readings = { [R in Reading as R['name']]: R['values'][number] };

/** Every reading at bvs-mock's default. */
export const DEFAULT_READINGS: Readings = Object.fromEntries(READINGS.map((reading) => [reading.name, reading.default])) as Readings;

const names = (): string => READINGS.map((reading) => reading.name).join(', ');

/**
 * Readings as given (the configuration file's `readings:`, a session's `readings`, `createMock`'s `readings`):
 * a map of reading name to value. An unknown name or value is refused at its key, naming the known ones.
 */
export const ReadingsInput = z
  .record(z.string(), z.string())
  .superRefine((given, context) => {
    for (const [name, value] of Object.entries(given)) {
      const problem = readingProblem(name, value);
      if (problem !== undefined) context.addIssue({ code: 'custom', path: [name], message: problem });
    }
  })
  .openapi({
    description: 'Readings of the spec where it contradicts itself (`bvs-mock readings` lists them), by name: `{ "ready-on-main-failure": "withheld" }`.',
    example: { 'ready-on-main-failure': 'withheld' },
  });

/** Why `name=value` is not a reading, or undefined when it is one. */
export function readingProblem(name: string, value: string): string | undefined {
  const reading = READINGS.find((candidate) => candidate.name === name);
  if (reading === undefined) return `unknown reading ${JSON.stringify(name)}; the readings are ${names()}`;
  if (!(reading.values as readonly string[]).includes(value)) return `reading ${name} must be ${reading.values.join(' or ')}, got ${JSON.stringify(value)}`;
  return undefined;
}

/** Every reading at its value: the given ones over the defaults; throws naming the first unknown name or value. */
export function resolveReadings(...layers: ReadonlyArray<Readonly<Record<string, string>> | undefined>): Readings {
  const readings: Record<string, string> = { ...DEFAULT_READINGS };
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      const problem = readingProblem(name, value);
      if (problem !== undefined) throw new Error(`bvs-mock: ${problem}`);
      readings[name] = value;
    }
  }
  return readings as Readings;
}
