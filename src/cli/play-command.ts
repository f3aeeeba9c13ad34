import { mockParts } from '../mock/create-mock';
import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { loadScenarioFile, ScenarioFileError } from '../engine/scenarios';
import { didYouMean } from '../engine/scenarios/closest-names';
import { createMock } from '../mock/create-mock';
import { playTree } from '../mock/play-tree';
import type { DeliveryAttempt, DeliveryEvent } from '../schemas';

/** Options of `bvs-mock play`. */
interface PlayFlags {
  webhookUrl: string;
  secret?: string;
  scenarios: string[];
  seed: number;
  insecureWebhookTls: boolean;
  timeout: number;
}

/**
 * `bvs-mock play SCENARIO --webhook-url URL [--secret S]`: plays one scenario on
 * the instant clock to one receiver, prints each delivery attempt, and exits 1
 * if any delivery failed for good (docs/design.md, Command line). A run waiting for
 * input (`missing_input_data`) gets it once the rest has played, so the whole
 * scenario reaches the receiver.
 */
export function playCommand(): Command {
  return new Command('play')
    .description('play one scenario (a name, or a scenario file) to one webhook receiver on the instant clock, then exit')
    .argument('<scenario>', 'scenario name (see bvs-mock scenarios) or path to a scenario file')
    .addOption(new Option('--webhook-url <url>', 'the receiver').env('BVS_MOCK_WEBHOOK_URL').makeOptionMandatory())
    .addOption(new Option('--secret <secret>', 'send Authorization: Bearer <secret> (the endpoint secret)').env('BVS_MOCK_WEBHOOK_SECRET'))
    .addOption(
      new Option('--scenarios <dir>', 'more scenario directories (repeatable)')
        .default([])
        .argParser((value: string, previous: string[]) => [...previous, value]),
    )
    .addOption(new Option('--seed <n>', 'seed of ids and payloads').default(1).argParser(Number))
    .addOption(new Option('--insecure-webhook-tls', "accept the receiver's self-signed certificate").default(false))
    .addOption(new Option('--timeout <ms>', 'real milliseconds the receiver has to answer each attempt').default(10_000).argParser(Number))
    .action(async (scenarioArgument: string, flags: PlayFlags) => {
      process.exitCode = await play(scenarioArgument, flags);
    });
}

async function play(scenarioArgument: string, flags: PlayFlags): Promise<number> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const mock = createMock({
    clock: 'instant',
    seed: flags.seed,
    scenarioDirs: flags.scenarios,
    webhookUrl: flags.webhookUrl,
    webhookSecret: flags.secret,
    insecureWebhookTls: flags.insecureWebhookTls,
    deliveryTimeoutMs: flags.timeout,
    onDeliveryAttempt: (delivery, attempt) => print(describeAttempt(delivery, attempt)),
  });
  try {
    const scenario = resolveScenario(mock, scenarioArgument);
    const tin = scenario.tins?.[0] ?? scenario.entity.tin;
    print(`bvs-mock play: ${scenario.name} (TIN ${tin}) to ${flags.webhookUrl}`);
    const { deliveries } = mockParts(mock).world;
    const created = await playTree(mock, scenario, {
      onInputSupplied: (run, at) => print(`${at.slice(11, 23)}  input supplied to ${run} (it waited in missing_input_data)`),
    });
    if (!created.ok) throw new Error(created.message);
    const counts = deliveries.counts();
    const total = counts.succeeded + counts.failed + counts.expired + counts.pending;
    print(`${total} deliveries: ${counts.succeeded} succeeded, ${counts.failed} failed, ${counts.expired} expired`);
    return counts.failed + counts.expired + counts.pending === 0 ? 0 : 1;
  } finally {
    mock.dispose();
  }
}

function resolveScenario(mock: ReturnType<typeof createMock>, argument: string) {
  const library = mockParts(mock).world.scenarios;
  const named = library.byName(argument);
  if (named) return named;
  if (existsSync(argument)) {
    const loaded = loadScenarioFile(argument);
    if (!loaded.ok) throw new ScenarioFileError(loaded.file, loaded.issues, { cause: loaded.cause });
    const added = library.add(loaded.value, { source: argument, override: true });
    if (!added.ok) throw new Error(added.issues.map((issue) => issue.message).join('; '));
    return loaded.value;
  }
  throw new Error(`no scenario named "${argument}" and no such file.${didYouMean(argument, library.scenarioNames())} bvs-mock scenarios lists the names`);
}

function describeAttempt(delivery: DeliveryEvent, attempt: DeliveryAttempt): string {
  const time = attempt.at.slice(11, 23);
  // A status with an error: the answer broke off after its head, which is no acknowledgement.
  const outcome =
    attempt.response_code === null ? (attempt.error ?? 'no answer') : `${attempt.response_code}${attempt.error === null ? '' : ` (${attempt.error})`}`;
  const next =
    delivery.status === 'pending' && delivery.next_attempt_at !== null
      ? `, retry at ${delivery.next_attempt_at.slice(11, 23)}`
      : delivery.status === 'failed'
        ? ', failed for good'
        : '';
  const label = attempt.trigger === 'first' ? '' : ` (attempt ${attempt.number}, ${attempt.trigger.replace('_', ' ')})`;
  return `${time}  ${delivery.type.padEnd(48)} -> ${outcome} in ${attempt.duration_ms.toFixed(1)} ms${label}${next}`;
}
