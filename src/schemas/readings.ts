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
        '§6 Triggers: `data_source_run_batch.ready`: "all runs of the main entity completed successfully." It is not sent for a main batch whose runs did not all succeed; `child_batches_ready` and the automatic report follow `child-batches-on-main-failure` (row 32): suppressed by default, so that validation sends no batch-level event (the report can still be generated on demand); with `child-batches-on-main-failure=sent` they come without a `ready` before them.',
    },
  },
  {
    name: 'child-batches-on-main-failure',
    row: 32,
    values: ['suppressed', 'sent'],
    default: 'suppressed',
    spec: {
      suppressed:
        '§6 rule 4: `child_batches_ready` "fires exactly once per validation, once the main batch and all partner batches have completed", and §6 rule 5: the automatic report "fires after the tree completes", read with §6 Triggers, where the main entity\'s runs "completed successfully": a main batch with a run in `definitive_error` has not completed, so a definitive failure anywhere in the tree, the main entity\'s included, suppresses `child_batches_ready` and the automatic consolidated report ("The report can still be generated on demand").',
      sent: '§6 rule 4 and §7 Errors 5: "If a partner\'s data source fails definitively, neither this event nor the automatic consolidated report is emitted for that validation"; §6 Triggers: `child_batches_ready`: "the main entity\'s batch and every related entity batch finished". Only a partner\'s failure suppresses them: when the main entity alone failed, `child_batches_ready` (when enabled) and then the automatic report are sent once the tree has finished, the main batch with `runs_succeeded: false`. Independent of `ready-on-main-failure`: with `withheld` they come without a `data_source_run_batch.ready` before them.',
    },
  },
  {
    name: 'child-batches-on-revalidation',
    row: 33,
    values: ['once', 'again'],
    default: 'once',
    spec: {
      once: '§6 rule 4: `child_batches_ready` "fires exactly once per validation". A revalidation fires `formation.ready` (§6 rule 2: "once more on each revalidation") and `consolidated_report_ready` again, but no second `child_batches_ready`: its report comes without one.',
      again:
        '§6 rule 5: `consolidated_report_ready` "fires after the tree completes, and after `child_batches_ready` when that event is enabled"; §6 Event order 3: "`child_batches_ready` fires when the main entity and every partner complete. Report generation then starts". Each play of the tree, a revalidation\'s included, sends `child_batches_ready` (when enabled) with the new main batch and its child batches before its `consolidated_report_ready`.',
    },
  },
  {
    name: 'legacy-url-and-endpoints',
    row: 58,
    values: ['both', 'legacy-only'],
    default: 'both',
    spec: {
      both: '§6 Subscription and delivery 1: "an event is delivered to every enabled endpoint subscribed to its type"; §6 Legacy model: "the URL receives all events of that resource". The two models deliver independently: the `webhook_url` of a validation (or of its nested `information_request`) gets every event of that resource, and the organization\'s subscribed endpoints get theirs as well.',
      'legacy-only':
        "§6 Legacy model: \"No organization endpoints. `webhook_url` is given on the entity validation and on the nested `information_request`, and the URL receives all events of that resource.\" An event of a resource created with a `webhook_url` (the validation's for the tree's events, the information request's own for its events) goes to that URL alone: the organization's endpoints get none of it. The events of a resource without one (an information request created without `webhook_url`) go to the endpoints as before.",
    },
  },
  {
    name: 'run-ready-on-failure',
    row: 23,
    values: ['sent', 'withheld'],
    default: 'sent',
    spec: {
      sent: '§6 Triggers: `data_source_run_batch.data_source_run.ready`: "an individual run completed (one event per run)"; §6 Event order 1: "Per-run `data_source_run_batch.data_source_run.ready` fires for each run." A run that ends in `definitive_error` has completed: it gets its event, with `status: definitive_error` and `succeeded_at: null` (`temporary_error` and `missing_input_data` are not completions).',
      withheld:
        '§3 Data source run `status`: `succeeded` is "completed successfully", `definitive_error` a "permanent failure"; read with §6 Triggers\' "an individual run completed" (as `data_source_run_batch.ready`\'s "completed successfully", row 31), a run that failed for good did not complete: it gets no `data_source_run.ready`, so only succeeded runs are announced, one event each, and a client learns of the failure from its batch (`runs_succeeded: false`, the run\'s `status` in `data_source_runs`).',
    },
  },
  {
    name: 'child-batch-fields',
    row: 21,
    values: ['whole', 'listed'],
    default: 'whole',
    spec: {
      whole:
        '§2 Data source run batch: `child_batches`: "one batch object per related entity, same shape as a batch"; "Batches are self-similar." Each child of `child_batches_ready` is a whole batch: the fields §6 rule 4 lists and the rest (`data_source_runs`, `created_at`, `consolidated_report_url`, its own `child_batches` …).',
      listed:
        '§6 rule 4: "each child has id, runs_succeeded, entity_validation_id, tin, parent_batch_id, execution_type `related` and its own `raised_alerts`"; "Each child carries the partner\'s `tin` only. Full identity is read from the entity validation." Each child of `child_batches_ready` carries those seven fields alone (no `data_source_runs`, no nested `child_batches`); `data_source_run_batch.ready`, `consolidated_report_ready` and the API keep whole batches (§2; §6 rule 3).',
    },
  },
  {
    name: 'token-client-auth',
    row: 69,
    values: ['form-or-basic', 'form-only'],
    default: 'form-or-basic',
    spec: {
      'form-or-basic':
        '§4 POST /oauth/token: "fields: `grant_type` (must be `client_credentials`), `client_id`, `client_secret`, `scope`"; §5.4: "OAuth 2.0: obtain `<ACCESS_TOKEN>` from the token endpoint". The spec names the fields, not the method; an OAuth 2.0 token endpoint takes them in the form or as HTTP Basic (RFC 6749 §2.3.1, the default of most OAuth libraries), so both are accepted.',
      'form-only':
        '§4 POST /oauth/token: "Request `Content-Type: application/x-www-form-urlencoded`, fields: `grant_type` (must be `client_credentials`), `client_id`, `client_secret`, `scope`". Only the form fields authenticate: `Authorization: Basic` is ignored, so a client that sends its credentials that way alone gets 401 `invalid_client`, as it would from a service that reads the form only.',
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
    description:
      'Readings of the spec where it contradicts itself (`bvs-mock readings` lists them), by name: `{ "ready-on-main-failure": "withheld", "legacy-url-and-endpoints": "legacy-only" }`.',
    example: { 'ready-on-main-failure': 'withheld', 'legacy-url-and-endpoints': 'legacy-only' },
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
