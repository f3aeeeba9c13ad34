import { randomBytes } from 'node:crypto';
import { problems } from '../api/api-problem';
import { REDACTED_SECRET } from '../api/routes/control-routes';
import { DEFAULT_SESSION_ID, SESSIONS_PATH, type SessionDirectory } from '../api/session-directory';
import { parseScenarioSource } from '../engine/scenarios';
import {
  ALL_SCOPES,
  BvsMockConfig,
  parseWith,
  type Issue,
  type OrganizationConfig,
  type SessionAnswer,
  type SessionCreateRequest,
  type SessionEnded,
  type SessionList,
  type SessionSummary,
} from '../schemas';
import { RealTimer } from '../wall';
import { createWorld, type World, type WorldOptions } from '../world/world';

/** Sessions held at once besides the default one, unless `--max-sessions` says otherwise. */
export const DEFAULT_MAX_SESSIONS = 100;
/** The most `--max-sessions` may be: each session is a whole world, with its own retention limits. */
export const MAX_SESSIONS_LIMIT = 10_000;
/** Idle seconds after which a session ends, unless `--session-ttl` says otherwise: half an hour. */
export const DEFAULT_SESSION_TTL_S = 1800;
/** The longest `--session-ttl`: a week. */
export const MAX_SESSION_TTL_S = 7 * 24 * 3600;
/** How often, at most, idle sessions are looked for (real time); a lookup of an idle one ends it at once anyway. */
const SWEEP_EVERY_MS = 30_000;

/** What every session's world is made with: the server's own options, less what is the default session's alone. */
export type SessionWorldBase = Omit<WorldOptions, 'config' | 'seed' | 'webhookUrl' | 'webhookSecret' | 'mount' | 'scenarios' | 'tokenTag'>;

/** Options of {@link Sessions}. */
export interface SessionsOptions {
  defaultWorld: World;
  base: SessionWorldBase;
  maxSessions: number;
  ttlMs: number;
}

interface Session {
  id: string;
  label: string | null;
  world: World;
  createdAt: number;
  lastUsed: number;
  organizations: OrganizationConfig[];
}

/**
 * The sessions of one server (docs/design.md, "Sessions"; docs/fidelity.md rows 114 to 118): worlds made at run
 * time, each with credentials of its own, found by id (a path's `/_mock/sessions/{id}`), by API key, by OAuth
 * client, or by access token (a session's tokens carry its id). The default session is the server's own world.
 */
export class Sessions implements SessionDirectory {
  private readonly sessions = new Map<string, Session>();
  private readonly byKey = new Map<string, Session>();
  private readonly byClient = new Map<string, Session>();
  private readonly sweeper = new RealTimer();
  private readonly created: number;

  constructor(private readonly options: SessionsOptions) {
    this.created = options.base.wallClock.wallNow();
  }

  get defaultWorld(): World {
    return this.options.defaultWorld;
  }

  /** Sessions held now, the default one left out. */
  get size(): number {
    return this.sessions.size;
  }

  byId(id: string): World | undefined {
    if (id === DEFAULT_SESSION_ID) return this.options.defaultWorld;
    return this.use(this.sessions.get(id));
  }

  byCredential(bearer: string): World | undefined {
    const byKey = this.byKey.get(bearer);
    if (byKey !== undefined) return this.use(byKey);
    const tagged = /^bvs_at_(ses_[0-9a-f]{20})\./.exec(bearer);
    return tagged === null ? undefined : this.use(this.sessions.get(tagged[1]!));
  }

  byClientId(clientId: string): World | undefined {
    return this.use(this.byClient.get(clientId));
  }

  create(request: SessionCreateRequest): SessionAnswer {
    this.sweep();
    if (this.sessions.size >= this.options.maxSessions) throw problems.sessionLimitReached(this.options.maxSessions);
    const id = `ses_${randomBytes(10).toString('hex')}`;
    const organizations = this.organizationsOf(request);
    const scenarios = (request.scenarios ?? []).map((document, index) => {
      const source = `POST /_mock/sessions $.scenarios[${index}]`;
      const parsed = parseScenarioSource({ text: JSON.stringify(document), file: source });
      if (!parsed.ok)
        throw problems.validationFailed(parsed.issues.map(({ path, code, message }) => ({ path: `$.scenarios[${index}]${path.slice(1)}`, code, message })));
      return { scenario: parsed.value, source };
    });
    const base = this.options.base;
    let world: World;
    try {
      world = createWorld({
        ...base,
        config: { organizations },
        seed: request.seed,
        clock: request.clock?.mode ?? base.clock,
        startTime: request.clock?.start_time ?? base.startTime,
        speed: request.clock?.speed ?? base.speed,
        tokenClock: request.clock?.token_clock ?? base.tokenClock,
        strict: request.strict ?? base.strict,
        tolerance: request.tolerance ?? base.tolerance,
        publicUrl: this.options.defaultWorld.signer.baseUrl,
        mount: `${SESSIONS_PATH}/${id}`,
        tokenTag: id,
        scenarios,
      });
    } catch (error) {
      // What is left to refuse here is the session's own input: a start time, a scenario clashing with another.
      throw problems.invalidRequest(`The session cannot be made: ${(error as Error).message.replace(/^bvs-mock: /, '')}`);
    }
    const now = base.wallClock.wallNow();
    const session: Session = { id, label: request.label ?? null, world, createdAt: now, lastUsed: now, organizations };
    this.sessions.set(id, session);
    for (const organization of organizations) {
      for (const key of organization.api_keys) this.byKey.set(key, session);
      for (const client of organization.oauth_clients) this.byClient.set(client.client_id, session);
    }
    this.armSweeper();
    return this.answer(session);
  }

  describe(id: string): SessionAnswer | undefined {
    if (id === DEFAULT_SESSION_ID) return { ...this.defaultSummary(), organizations: this.options.defaultWorld.registry.list().map(redacted) };
    const session = this.sessions.get(id);
    if (session === undefined || this.expired(session)) return undefined;
    return { ...this.summary(session), organizations: session.organizations.map(redacted) };
  }

  list(): SessionList {
    this.sweep();
    return {
      sessions: [this.defaultSummary(), ...[...this.sessions.values()].map((session) => this.summary(session))],
      limits: { max_sessions: this.options.maxSessions, session_ttl_seconds: Math.round(this.options.ttlMs / 1000) },
    };
  }

  end(id: string): SessionEnded | 'default' | undefined {
    if (id === DEFAULT_SESSION_ID) return 'default';
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    return { id, status: 'ended', deliveries_cancelled: this.drop(session) };
  }

  /** Ends every session whose idle time has passed the limit. */
  sweep(): void {
    for (const session of [...this.sessions.values()]) if (this.expired(session)) this.drop(session);
  }

  /** Ends every session (the server stops); the default world is its owner's to dispose. */
  dispose(): void {
    for (const session of [...this.sessions.values()]) this.drop(session);
    this.sweeper.release();
  }

  private use(session: Session | undefined): World | undefined {
    if (session === undefined) return undefined;
    if (this.expired(session)) {
      this.drop(session);
      return undefined;
    }
    session.lastUsed = this.options.base.wallClock.wallNow();
    return session.world;
  }

  private expired(session: Session): boolean {
    return this.options.base.wallClock.wallNow() - session.lastUsed >= this.options.ttlMs;
  }

  /** Takes a session out of every index and ends its world; answers how many deliveries it still had due. */
  private drop(session: Session): number {
    if (this.sessions.get(session.id) !== session) return 0;
    this.sessions.delete(session.id);
    for (const organization of session.organizations) {
      for (const key of organization.api_keys) if (this.byKey.get(key) === session) this.byKey.delete(key);
      for (const client of organization.oauth_clients) if (this.byClient.get(client.client_id) === session) this.byClient.delete(client.client_id);
    }
    const cancelled = session.world.deliveries.counts().pending;
    session.world.dispose();
    if (this.sessions.size === 0) this.sweeper.release();
    return cancelled;
  }

  private armSweeper(): void {
    this.sweeper.armAfter(Math.min(SWEEP_EVERY_MS, this.options.ttlMs), () => {
      this.sweep();
      if (this.sessions.size > 0) this.armSweeper();
    });
  }

  /**
   * The session's organizations in the configuration's form, each credential it lacks generated: an API key, an
   * OAuth client with every scope, a legacy webhook token. A credential given must be no other session's (nor the
   * default session's): it is what finds the session.
   */
  private organizationsOf(request: SessionCreateRequest): OrganizationConfig[] {
    const given = request.organizations ?? [{ id: 'default', api_keys: [], oauth_clients: [], settings: { child_batches_ready: true }, webhook_endpoints: [] }];
    const secret = () => randomBytes(18).toString('base64url');
    const organizations = given.map((organization) => ({
      ...organization,
      api_keys: organization.api_keys.length > 0 ? organization.api_keys : [`bvs_key_${secret()}`],
      oauth_clients:
        organization.oauth_clients.length > 0
          ? organization.oauth_clients
          : [{ client_id: `bvs_client_${randomBytes(8).toString('hex')}`, client_secret: secret(), scopes: [...ALL_SCOPES] }],
      settings: { ...organization.settings, legacy_webhook_token: organization.settings.legacy_webhook_token ?? `tok_legacy_${secret()}` },
    }));
    const checked = parseWith(BvsMockConfig, { organizations });
    if (!checked.ok) throw problems.validationFailed(checked.issues);
    const defaults = this.options.defaultWorld.registry;
    const taken: Issue[] = [];
    organizations.forEach((organization, index) => {
      organization.api_keys.forEach((key, keyIndex) => {
        if (this.byKey.has(key) || defaults.byApiKey(key) !== undefined) taken.push(inUse('API key', key, `$.organizations[${index}].api_keys[${keyIndex}]`));
      });
      organization.oauth_clients.forEach((client, clientIndex) => {
        if (this.byClient.has(client.client_id) || defaults.hasClient(client.client_id))
          taken.push(inUse('client_id', client.client_id, `$.organizations[${index}].oauth_clients[${clientIndex}].client_id`));
      });
    });
    if (taken.length > 0) throw problems.credentialsInUse(taken);
    return checked.value.organizations;
  }

  private summary(session: Session): SessionSummary {
    return {
      ...describeWorld(session.world),
      id: session.id,
      label: session.label,
      default: false,
      control_base: `${SESSIONS_PATH}/${session.id}`,
      created_at: new Date(session.createdAt).toISOString(),
      last_used_at: new Date(session.lastUsed).toISOString(),
      expires_at: new Date(session.lastUsed + this.options.ttlMs).toISOString(),
    };
  }

  private answer(session: Session): SessionAnswer {
    return { ...this.summary(session), organizations: session.organizations.map(credentialsOf) };
  }

  private defaultSummary(): SessionSummary {
    const at = new Date(this.created).toISOString();
    return {
      ...describeWorld(this.options.defaultWorld),
      id: DEFAULT_SESSION_ID,
      label: null,
      default: true,
      control_base: '/_mock',
      created_at: at,
      last_used_at: at,
      expires_at: null,
    };
  }
}

function inUse(kind: string, value: string, path: string): Issue {
  return { path, code: 'credential_in_use', message: `${kind} "${value}" is used by another session` };
}

/** What a session's summary says of its world. */
function describeWorld(world: World): Pick<SessionSummary, 'seed' | 'clock' | 'counts'> {
  const organizations = world.registry.list();
  return {
    seed: world.seed,
    clock: world.clock.describe(),
    counts: {
      organizations: organizations.length,
      validations: world.engine.retention().validations,
      endpoints: organizations.reduce((sum, organization) => sum + world.endpoints.list(organization.id).length, 0),
      requests: world.journal.retention().entries,
      deliveries: world.deliveries.counts(),
    },
  };
}

/**
 * An organization's credentials as `GET /_mock/sessions/{id}` shows them: client ids, and `<set>` for every secret,
 * as every control answer after the one that made it (docs/fidelity.md row 115).
 */
function redacted(organization: OrganizationConfig): SessionAnswer['organizations'][number] {
  const shown = credentialsOf(organization);
  return {
    ...shown,
    api_keys: shown.api_keys.map(() => REDACTED_SECRET),
    oauth_clients: shown.oauth_clients.map((client) => ({ ...client, client_secret: REDACTED_SECRET })),
    legacy_webhook_token: shown.legacy_webhook_token === null ? null : REDACTED_SECRET,
  };
}

/** An organization's credentials as a session's answer lists them. */
function credentialsOf(organization: OrganizationConfig): SessionAnswer['organizations'][number] {
  return {
    id: organization.id,
    api_keys: [...organization.api_keys],
    oauth_clients: organization.oauth_clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      scopes: [...client.scopes],
    })),
    legacy_webhook_token: organization.settings.legacy_webhook_token ?? null,
  };
}
