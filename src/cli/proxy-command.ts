import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { Command, Option } from 'commander';
import { startProxy, type StartedProxy } from '../http/start-proxy';
import { driftFormatOf, renderDrift } from '../proxy/drift-report';
import { Recorder } from '../proxy/recorder';
import { collect, liveWriter } from './record-flags';
import { redactPathsReadable } from './redact-flag';
import { listeningTls, withListeningOptions, type ListeningFlags } from './listening-options';
import { readPem } from './serve-flags';
import { controlToken, integer } from './serve-flag-values';

/** Options of `bvs-mock proxy`, after flags and environment variables are read. */
interface ProxyFlags extends ListeningFlags {
  upstream: string;
  upstreamCa?: string;
  controlToken?: string;
  report?: string;
  reportFormat?: 'json' | 'markdown' | 'junit';
  slowMs?: number;
  record?: string;
  redact: string[];
}

/**
 * `bvs-mock proxy --upstream URL`: the client points at bvs-mock, which forwards every call to the real service
 * with the client's own credentials and checks each request and answer against the contract; `GET /_mock/drift`
 * answers the drift live and `--report FILE` writes it at exit. Its own port, TLS and control token take `serve`'s flags.
 */
export function proxyCommand(): Command {
  return withListeningOptions(new Command('proxy'), { env: 'BVS_MOCK_PORT', default: 4010 })
    .description(
      "forward every API call to --upstream (the real service) with the client's own credentials, check each answer against the contract, and report the drift",
    )
    .addOption(new Option('--upstream <url>', 'the service to forward to, like https://sandbox.example.com').env('BVS_MOCK_UPSTREAM').makeOptionMandatory())
    .addOption(new Option('--upstream-ca <file>', "certificates (PEM) to trust for the upstream beside the system's").env('BVS_MOCK_UPSTREAM_CA'))
    .addOption(
      new Option('--control-token <token>', 'lock GET /_mock/drift: it then asks for Authorization: Bearer <token>')
        .env('BVS_MOCK_CONTROL_TOKEN')
        .argParser(controlToken),
    )
    .addOption(new Option('--report <file>', 'write the drift to this file when the proxy stops (SIGINT, SIGTERM)').env('BVS_MOCK_REPORT'))
    .addOption(
      new Option('--report-format <format>', 'json, markdown or junit (default: from the extension of --report: .md, .xml, else JSON)').choices([
        'json',
        'markdown',
        'junit',
      ]),
    )
    .addOption(
      new Option('--record <file>', 'record every exchange (credentials left out) to FILE, kept up to date and written whole at exit').env('BVS_MOCK_RECORD'),
    )
    .addOption(new Option('--redact <path>', 'mask this JSON path in recorded bodies, like $..display_name (repeatable)').default([]).argParser(collect))
    .addOption(new Option('--slow-ms <ms>', 'an answer slower than this is drift (default 5000)').argParser(integer('--slow-ms', 1, 600_000)))
    .action(async (flags: ProxyFlags) => {
      if (!redactPathsReadable('proxy', flags.redact)) return;
      // A bad upstream is refused with exit 2 before anything listens: nothing would ever reach it.
      const upstream = upstreamUrl(flags.upstream);
      const reason = typeof upstream === 'string' ? upstream : await unreachable(upstream);
      if (reason !== undefined) {
        process.stderr.write(`bvs-mock proxy: --upstream ${flags.upstream}: ${reason}\n`);
        process.exitCode = 2;
        return;
      }
      await runProxy(flags, upstream as URL);
    });
}

/** The upstream's URL, or why it is not one the proxy can forward to. */
function upstreamUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "not a URL; give the service's base URL, like https://sandbox.example.com";
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${url.protocol} is not HTTP; give an https:// (or http://) URL`;
  if (url.username !== '' || url.password !== '') return 'the URL carries credentials; the client sends its own, and the proxy forwards them';
  if (url.search !== '' || url.hash !== '') return 'the URL has a query or a fragment; give the base URL only';
  return url;
}

/** Why nothing answers at the upstream's address (a connection refused, an unknown name, no answer in 10 s), or undefined. */
function unreachable(url: URL): Promise<string | undefined> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port, timeout: 10_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`nothing answered at ${url.host} within 10 s`);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(`cannot connect to ${url.host} (${error.code ?? error.message})`));
  });
}

async function runProxy(flags: ProxyFlags, upstream: URL): Promise<void> {
  const tls = await listeningTls(flags);
  const recorder = flags.record === undefined ? undefined : new Recorder({ source: 'proxy', peer: upstream.origin, redact: flags.redact });
  const live = recorder === undefined ? undefined : liveWriter(recorder, flags.record!);
  let proxy: StartedProxy;
  try {
    proxy = await startProxy({
      upstream,
      upstreamCa: flags.upstreamCa === undefined ? undefined : readPem(flags.upstreamCa, '--upstream-ca'),
      port: flags.port,
      host: flags.host,
      http: flags.http,
      tls: tls ?? undefined,
      controlToken: flags.controlToken ?? null,
      slowAnswerMs: flags.slowMs,
      onExchange:
        recorder === undefined
          ? undefined
          : (exchange) => {
              recorder.addExchange(exchange);
              live!.soon();
            },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new Error(`port ${flags.port} on ${flags.host} is in use; choose another with --port`, { cause: error });
    throw error;
  }
  if (flags.writeCertificate !== undefined && tls !== null) writeFileSync(flags.writeCertificate, tls.cert);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    let written = true;
    if (flags.report !== undefined) {
      try {
        writeFileSync(flags.report, renderDrift(proxy.drift.answer(), driftFormatOf(flags.report, flags.reportFormat), upstream.origin, new Date()));
        process.stdout.write(`bvs-mock proxy: drift written to ${flags.report}\n`);
      } catch (error) {
        written = false;
        process.stderr.write(`bvs-mock proxy: --report ${flags.report}: ${(error as Error).message}\n`);
      }
    }
    if (recorder !== undefined) {
      try {
        live!.now();
        process.stdout.write(`bvs-mock proxy: recording written to ${flags.record}\n`);
      } catch (error) {
        written = false;
        process.stderr.write(`bvs-mock proxy: --record ${flags.record}: ${(error as Error).message}\n`);
      }
    }
    void proxy.close().then(() => {
      process.stdout.write(`bvs-mock proxy: stopped (${signal})\n`);
      process.exit(written ? 0 : 1);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.stdout.write(
    `bvs-mock proxy listening on ${proxy.url}, forwarding to ${upstream.origin}${upstream.pathname === '/' ? '' : upstream.pathname}\n  drift: ${proxy.url}/_mock/drift${flags.report === undefined ? '' : `; written to ${flags.report} at exit`}\n`,
  );
}
