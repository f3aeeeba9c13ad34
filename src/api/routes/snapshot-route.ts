import { WorldSnapshot } from '../../schemas';
import { snapshotWorld } from '../../world/world-snapshot';
import { jsonResponse } from '../core-types';
import type { Route } from '../router';

/**
 * `GET /_mock/snapshot` (`/_mock/sessions/{id}/snapshot` for a session): the whole world as a versioned JSON
 * document, from which `POST /_mock/sessions` with `snapshot` makes a session that goes on exactly where this
 * one stood (docs/fidelity.md row 118). It holds the world's secrets, as a backup does.
 */
export const snapshotRoute = {
  method: 'GET',
  pattern: '/_mock/snapshot',
  operation: 'control.snapshot',
  access: { kind: 'control' },
  document: {
    tags: ['Sessions'],
    summary: 'The whole session as a snapshot',
    description:
      "Clock, organizations as configured (credentials included) and their settings, validations, plays and timers still due, delivery records and attempts still due, endpoints (secrets included), faults, journals, receiver checks, run-time scenarios and access tokens, in a versioned document (`format`, `version`). `POST /_mock/sessions` with it as `snapshot` restores it into a new session. It holds the session's secrets, like a backup: lock the control API (`--control-token`) where that matters (docs/fidelity.md row 118).",
    answer: { status: 200, description: 'The snapshot.', schema: WorldSnapshot },
  },
  handle: (context) => jsonResponse(200, snapshotWorld(context.world)),
} as const satisfies Route;
