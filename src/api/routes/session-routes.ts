import { SessionAnswer, SessionCreateRequest, SessionEnded, SessionId, SessionList, parseWith, z } from '../../schemas';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { SESSIONS_PATH } from '../session-directory';

const control = { kind: 'control' as const };

/**
 * The sessions of one server (docs/design.md, "Sessions"): make one, list them, read one with its credentials,
 * end one. Every other control operation of a session is its `/_mock/…` path under `/_mock/sessions/{id}`.
 */
export const sessionRoutes = [
  {
    method: 'POST',
    pattern: '/_mock/sessions',
    operation: 'control.sessions.create',
    access: control,
    document: {
      tags: ['Sessions'],
      summary: 'Make a session: an isolated world of its own',
      description:
        "A whole world: organizations and credentials, validations, endpoints, deliveries, its own clock, faults, journal, report and scenarios. API requests reach it by its credentials (API key, OAuth client and its tokens, pre-signed URLs); its control operations are today's `/_mock/…` under `control_base`. It ends on `DELETE`, or after `--session-ttl` without a request (docs/fidelity.md rows 114 to 118).",
      body: { schema: SessionCreateRequest, example: { label: 'test/validations.test.ts', clock: { mode: 'manual' } } },
      answer: { status: 201, description: 'The session, with its credentials.', schema: SessionAnswer },
      errors: ['conflict', 'session_limit_reached'],
    },
    handle(context) {
      const body = checkBody(context, (value) => parseWith(SessionCreateRequest, value), context.json() ?? {});
      const session = context.sessions.create(body);
      return jsonResponse(201, session, { location: `${SESSIONS_PATH}/${session.id}` });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/sessions',
    operation: 'control.sessions.list',
    access: control,
    pure: true,
    document: {
      tags: ['Sessions'],
      summary: 'The sessions, with their counts',
      description: 'The default session first, then the others by creation; no credentials.',
      answer: { status: 200, description: 'The sessions and the limits.', schema: SessionList },
    },
    handle: (context) => jsonResponse(200, context.sessions.list()),
  },
  {
    method: 'GET',
    pattern: '/_mock/sessions/:id',
    operation: 'control.sessions.get',
    access: control,
    pure: true,
    document: {
      tags: ['Sessions'],
      summary: 'One session',
      params: z.object({ id: SessionId }),
      description:
        'What `POST /_mock/sessions` answered, with the counts and expiry as they are now; its secrets (API keys, client secrets, the legacy token) are shown as `<set>`, as every stored secret after the answer that made it.',
      answer: { status: 200, description: 'The session.', schema: SessionAnswer },
    },
    handle(context) {
      const id = context.params.id!;
      const session = context.sessions.describe(id);
      if (session === undefined) throw problems.sessionNotFound(id);
      return jsonResponse(200, session);
    },
  },
  {
    method: 'DELETE',
    pattern: '/_mock/sessions/:id',
    operation: 'control.sessions.end',
    access: control,
    document: {
      tags: ['Sessions'],
      summary: 'End a session',
      params: z.object({ id: SessionId }),
      description: 'Its deliveries still due or in flight are cancelled (and counted), its state is gone, and its credentials are refused from now on.',
      answer: { status: 200, description: 'Ended.', schema: SessionEnded },
      errors: ['conflict'],
    },
    handle(context) {
      const id = context.params.id!;
      const ended = context.sessions.end(id);
      if (ended === undefined) throw problems.sessionNotFound(id);
      if (ended === 'default') throw problems.defaultSessionPermanent();
      return jsonResponse(200, ended);
    },
  },
] as const satisfies readonly Route[];
