import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { ReceiverAuth } from '../probes/receiver-check';
import { receiverUrl } from '../probes/receiver-url';
import { startRelayServer, type RunningRelay } from '../http/start-relay';
import { RELAY_REPORT_PATH } from '../relay/relay-core';
import { parseReceiverAuth } from './check-receiver-command';
import { Recorder } from '../proxy/recorder';
import { printable } from './printable';
import { collect, liveWriter } from './record-flags';
import { redactPathsReadable } from './redact-flag';
import { listeningTls, withListeningOptions, type ListeningFlags } from './listening-options';
import { controlToken, integer } from './serve-flag-values';

interface ListenFlags extends ListeningFlags {
  forwardTo?: string;
  auth?: ReceiverAuth;
  controlToken?: string;
  report?: string;
  timeout: number;
  insecureWebhookTls: boolean;
  strict: boolean;
  record?: string;
  redact: string[];
}

const AUTH_REQUIRED =
  '--auth is required: what the service sends on each delivery, as its endpoint is configured: none (auth_type none), secret:<the endpoint secret> or legacy:<the legacy webhook token>';

/**
 * `bvs-mock listen --forward-to URL --auth A`: the webhook relay (README "Relaying a sandbox's webhooks"). The service's
 * endpoint points at it; each delivery is checked (envelope, authorization, order per validation tree), forwarded with
 * its headers to the local receiver, and answered with the receiver's answer, so the service's retries are real.
 */
export function listenCommand(): Command {
  return withListeningOptions(new Command('listen'), { env: 'BVS_MOCK_LISTEN_PORT', default: 4020 })
    .description(
      "relay the service's webhook deliveries to a local receiver (--forward-to), checking each one's envelope, authorization and order; GET /_mock/relay answers what it found",
    )
    .addOption(new Option('--forward-to <url>', 'required: the local receiver each delivery is forwarded to'))
    .addOption(new Option('--auth <auth>', 'required: what the service authorizes each delivery with: none, secret:S or legacy:T').argParser(parseReceiverAuth))
    .addOption(
      new Option('--control-token <token>', `require Authorization: Bearer <token> on GET ${RELAY_REPORT_PATH}`)
        .env('BVS_MOCK_CONTROL_TOKEN')
        .argParser(controlToken),
    )
    .addOption(new Option('--report <file>', 'write the deliveries and findings (JSON) to FILE when stopped (SIGINT, SIGTERM)'))
    .addOption(new Option('--record <file>', 'record every delivery (credentials left out) to FILE, kept up to date and written whole at exit'))
    .addOption(new Option('--redact <path>', 'mask this JSON path in recorded bodies, like $..display_name (repeatable)').default([]).argParser(collect))
    .addOption(
      new Option('--timeout <ms>', 'real milliseconds the receiver has to answer; past it the service is answered 502')
        .default(10_000)
        .argParser(integer('--timeout', 1, 600_000)),
    )
    .addOption(new Option('--insecure-webhook-tls', "accept the receiver's self-signed certificate").default(false))
    .addOption(new Option('--strict', 'report fields the contract does not list (tolerated by default, as a client must)').default(false))
    .action(async (flags: ListenFlags) => {
      if (redactPathsReadable('listen', flags.redact)) await listen(flags);
    });
}

async function listen(flags: ListenFlags): Promise<void> {
  if (flags.forwardTo === undefined) throw new Error('--forward-to is required: the local receiver, like http://127.0.0.1:3000/webhooks');
  const target = receiverUrl(flags.forwardTo, 'tester');
  if (!target.ok) throw new Error(`--forward-to: ${target.message}`);
  if (flags.auth === undefined) throw new Error(AUTH_REQUIRED);
  const tls = await listeningTls(flags);
  const recorder = flags.record === undefined ? undefined : new Recorder({ source: 'listen', peer: printable(target.url), redact: flags.redact });
  const live = recorder === undefined ? undefined : liveWriter(recorder, flags.record!);
  let running: RunningRelay;
  try {
    running = await startRelayServer({
      host: flags.host,
      port: flags.port,
      tls,
      controlToken: flags.controlToken,
      forwardTo: target.url,
      auth: flags.auth,
      timeoutMs: flags.timeout,
      insecureTls: flags.insecureWebhookTls,
      strict: flags.strict,
      onDelivery:
        recorder === undefined
          ? undefined
          : (delivery) => {
              recorder.addDelivery(delivery);
              live!.soon();
            },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new Error(`port ${flags.port} on ${flags.host} is in use; choose another with --port (or BVS_MOCK_LISTEN_PORT)`, { cause: error });
    throw error;
  }
  if (flags.writeCertificate !== undefined && tls !== null) writeFileSync(flags.writeCertificate, tls.cert);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const report = running.relay.report();
    let code = 0;
    if (flags.report !== undefined) {
      try {
        writeFileSync(flags.report, `${JSON.stringify(report, null, 2)}\n`);
      } catch (error) {
        process.stderr.write(`bvs-mock listen: --report ${flags.report}: cannot write it: ${(error as Error).message}\n`);
        code = 1;
      }
    }
    if (recorder !== undefined) {
      try {
        live!.now();
      } catch (error) {
        process.stderr.write(`bvs-mock listen: --record ${flags.record}: cannot write it: ${(error as Error).message}\n`);
        code = 1;
      }
    }
    void running.close().then(() => {
      process.stdout.write(
        `bvs-mock listen: stopped (${signal}): ${report.deliveries.length} deliveries relayed, ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}\n`,
      );
      process.exit(code);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.stdout.write(
    [
      `bvs-mock listen: relaying webhook deliveries posted to ${running.url}/ (any path) to ${printable(target.url)}`,
      `  point the service's webhook endpoint at a URL that reaches ${running.url}; findings and deliveries: GET ${running.url}${RELAY_REPORT_PATH}`,
      '',
    ].join('\n'),
  );
}
