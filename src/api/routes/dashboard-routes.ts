import { afterRealTime } from '../../wall';
import { ChangeNoticeData, OrganizationList, OrganizationQuery, ValidationListQuery, ValidationSummaryPage, ValidationTree, idOf, z } from '../../schemas';
import { problems } from '../api-problem';
import { CHANGE_NOTICE_MS, type ChangeNotice } from '../../world/change-feed';
import { jsonResponse } from '../core-types';
import { PageBudget, encodeCursor, readPageQuery } from '../page-query';
import type { Route } from '../router';

const control = { kind: 'control' as const };

/**
 * Real milliseconds between two comment lines on an idle stream: a proxy or a browser that closes
 * quiet connections keeps it, and a client that went away without a word is found by the failed write.
 */
/** Where the change stream is served (`GET`). */
const CHANGE_STREAM_PATH = '/_mock/stream';

const STREAM_HEARTBEAT_MS = 15_000;

/** How long a browser waits before it reconnects a dropped stream (the `retry:` field of server-sent events). */
const STREAM_RETRY_MS = 3_000;

/**
 * The Retry-After of a reader refused because the stream is full: readers leave only when someone closes a
 * tab or stops a test, so asking again sooner than 10 s mostly finds the same count.
 */
const STREAM_FULL_RETRY_S = 10;

const sse = (event: string, data: unknown, id?: number) => `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The control API's reads the dashboard (`/_mock/`) needs beside the delivery screens: organizations,
 * validations and their trees, and a stream of change notices. Nothing here is the dashboard's own: a
 * script reads the same answers.
 */
export const dashboardRoutes = [
  {
    method: 'GET',
    pattern: '/_mock/organizations',
    operation: 'control.organizations',
    access: control,
    pure: true,
    document: {
      tags: ['Organizations'],
      summary: 'The configured organizations',
      description: 'In configuration order; the first is the default. Credentials are not listed.',
      answer: { status: 200, description: 'The organizations.', schema: OrganizationList },
    },
    handle: (context) =>
      jsonResponse(200, {
        organizations: context.world.registry.list().map((organization) => ({
          id: organization.id,
          default: organization.id === context.world.registry.defaultId,
          oauth_configured: organization.settings.oauth !== undefined,
        })),
      }),
  },
  {
    method: 'GET',
    pattern: '/_mock/entity_validations',
    operation: 'control.validations.list',
    access: control,
    paced: true,
    pure: true,
    document: {
      tags: ['Validations'],
      summary: 'The validations created through the API',
      description: "Newest first, one line each: the organization's main validations kept (docs/fidelity.md row 59), paged.",
      query: ValidationListQuery,
      answer: { status: 200, description: 'A page of validations.', schema: ValidationSummaryPage },
      errors: ['validation_failed'],
    },
    handle(context) {
      const page = readPageQuery(context.request);
      const budget = new PageBudget(context.server.maxPageBytes);
      const { total, next } = context.world.engine.listValidations(context.organizationId, { before: page.after, limit: page.limit, fits: budget.fits });
      return budget.answer('validations', { total, next_cursor: encodeCursor(next) });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/entity_validations/:id',
    operation: 'control.validations.tree',
    access: control,
    pure: true,
    document: {
      tags: ['Validations'],
      summary: "A validation's whole tree",
      description:
        'The main entity and every partner as the API reads them, with batches, runs and their status history, alerts, formations and information requests. Its events: `GET /_mock/emitted?entity_validation_id=`.',
      params: z.object({ id: idOf('evl') }),
      query: OrganizationQuery,
      answer: { status: 200, description: 'The tree.', schema: ValidationTree },
    },
    handle(context) {
      const id = context.params.id!;
      const tree = context.world.engine.getTree(context.organizationId, id);
      if (tree === undefined) throw problems.notFound('entity validation created through the API', id);
      return jsonResponse(200, tree);
    },
  },
  {
    method: 'GET',
    pattern: CHANGE_STREAM_PATH,
    operation: 'control.stream',
    access: control,
    pure: true,
    document: {
      tags: ['Journal and report'],
      summary: 'Live notices of change (server-sent events)',
      description: `A \`text/event-stream\` that stays open: \`ready\` once, then a \`change\` event whenever events were emitted, a delivery attempt ended, a request changed state, the clock moved or bvs-mock was reset, at most one per ${CHANGE_NOTICE_MS} ms, each saying only what kind of thing changed (fetch what you show). A comment line every ${STREAM_HEARTBEAT_MS / 1000} s keeps it alive. What the dashboard listens to.`,
      answer: { status: 200, description: 'The stream; each `data:` line is JSON of this shape.', schema: ChangeNoticeData, contentType: 'text/event-stream' },
      errors: ['service_unavailable'],
    },
    handle(context) {
      const { changes, clock } = context.world;
      // Readers never hang up by themselves: past the cap a reader is refused, so they never take every connection (docs/fidelity.md row 101).
      if (changes.full) throw problems.streamReadersFull(changes.size, changes.maxReaders, STREAM_FULL_RETRY_S);
      return {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
        body: `retry: ${STREAM_RETRY_MS}\n\n${sse('ready', { now: clock.iso() })}`,
        stream: {
          open(write, end) {
            let stopHeartbeat = () => {};
            let closed = false;
            // A reader too slow to take a notice of a few bytes is gone or stuck: end it; a browser reconnects and refetches.
            const send = (chunk: string) => {
              if (!write(chunk)) end();
            };
            const unsubscribe = changes.subscribe((notice: ChangeNotice) => send(sse('change', notice, notice.id)), end);
            if (unsubscribe === null) {
              // Readers that passed the check above together, before any stream opened: the cap still holds.
              end();
              return () => {};
            }
            const heartbeat = () => {
              if (closed) return;
              stopHeartbeat = afterRealTime(STREAM_HEARTBEAT_MS, () => {
                send(': heartbeat\n\n');
                heartbeat();
              });
            };
            heartbeat();
            return () => {
              closed = true;
              stopHeartbeat();
              unsubscribe();
            };
          },
        },
      };
    },
  },
] as const satisfies readonly Route[];
