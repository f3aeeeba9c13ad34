import { randomBytes } from 'node:crypto';
import { problems } from '../api/api-problem';
import { credentialsOf, describeWorld, inUse, redacted } from './session-views';
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
  type SessionState,
  type SessionSummary,
  type WorldSnapshot,
} from '../schemas';
import { RealTimer } from '../wall';
import { createWorld, type World, type WorldOptions } from '../world/world';
import { readWorldSnapshot } from '../world/world-restore';
import { snapshotWorld } from '../world/world-snapshot';

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
export type SessionWorldBase = Omit<WorldOptions, 'config' | 'seed' | 'webhookUrl' | 'webhookSecret' | 'mount' | 'scenarios' | 'tokenTag' | 'snapshot'>;

/** Options of {@link Sessions}. */
export interface SessionsOptions {
  defaultWorld: World;
  base: SessionWorldBase;
  maxSessions: number;
  ttlMs: number;
}

/** What a session's world was made with besides what its snapshot holds. */
interface SessionMaking {
  strict: boolean;
  tolerance: boolean;
  tokenClock: 'simulated' | 'wall';
}

interface Session {
  id: string;
  label: string | null;
  made: SessionMaking;
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

  /** The worlds of the sessions held now, the default one left out. */
  worlds(): World[] {
    return [...this.sessions.values()].map((session) => session.world);
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
    const base = this.options.base;
    const made: SessionMaking = {
      strict: request.strict ?? base.strict ?? false,
      tolerance: request.tolerance ?? base.tolerance ?? false,
      tokenClock: request.clock?.token_clock ?? base.tokenClock ?? 'simulated',
    };
    if (request.snapshot !== undefined) return this.answer(this.restoreInto(id, request.label ?? null, made, request));
    const organizations = this.organizationsOf(request);
    const scenarios = (request.scenarios ?? []).map((document, index) => {
      const source = `POST /_mock/sessions $.scenarios[${index}]`;
      const parsed = parseScenarioSource({ text: JSON.stringify(document), file: source });
      if (!parsed.ok)
        throw problems.validationFailed(parsed.issues.map(({ path, code, message }) => ({ path: `$.scenarios[${index}]${path.slice(1)}`, code, message })));
      return { scenario: parsed.value, source };
    });
    const world = this.madeWorld(id, made, {
      config: { organizations },
      seed: request.seed,
      clock: request.clock?.mode ?? base.clock,
      startTime: request.clock?.start_time ?? base.startTime,
      speed: request.clock?.speed ?? base.speed,
      readings: { ...base.readings, ...request.readings },
      scenarios,
    });
    return this.answer(this.add({ id, label: request.label ?? null, made, world, createdAt: base.wallClock.wallNow(), organizations }));
  }

  /**
   * Every session as `--state-file` keeps it: its id, label and making, and its world's snapshot. The default
   * session is its owner's to snapshot.
   */
  state(): SessionState[] {
    this.sweep();
    return [...this.sessions.values()].map((session) => ({
      id: session.id,
      label: session.label,
      created_at: session.createdAt,
      strict: session.made.strict,
      tolerance: session.made.tolerance,
      token_clock: session.made.tokenClock,
      snapshot: snapshotWorld(session.world),
    }));
  }

  /**
   * Makes again the sessions of a state file, with their ids and credentials, each going on where its snapshot
   * stood; a restart counts as a use, so none expires for the time the server was down. Every world is built
   * before any is added: one that cannot be restored throws, naming its session, and none is left.
   */
  restore(saved: readonly SessionState[]): void {
    const built: Session[] = [];
    try {
      for (const entry of saved) {
        const made: SessionMaking = { strict: entry.strict, tolerance: entry.tolerance, tokenClock: entry.token_clock };
        let world: World;
        try {
          world = this.madeWorld(entry.id, made, { snapshot: entry.snapshot });
        } catch (error) {
          throw new Error(`session ${entry.id}${entry.label === null ? '' : ` (${entry.label})`}: ${(error as Error).message.replace(/^bvs-mock: /, '')}`, {
            cause: error,
          });
        }
        built.push({
          id: entry.id,
          label: entry.label,
          made,
          world,
          createdAt: entry.created_at,
          lastUsed: 0,
          organizations: world.registry.configuration.organizations,
        });
      }
    } catch (error) {
      for (const session of built) session.world.dispose();
      throw error;
    }
    for (const session of built) this.add(session);
  }

  /** A session from a snapshot (`POST /_mock/sessions` with `snapshot`): its credentials kept where free, else new ones. */
  private restoreInto(id: string, label: string | null, made: SessionMaking, request: SessionCreateRequest): Session {
    const given = (['organizations', 'seed', 'clock', 'scenarios', 'readings'] as const).filter((field) => request[field] !== undefined);
    if (given.length > 0)
      throw problems.invalidRequest(
        `A snapshot brings its own organizations, seed, clock, scenarios and readings; leave out ${given.join(', ')} with it.`,
        given.map((field) => ({ path: `$.${field}`, code: 'not_with_snapshot', message: 'comes from the snapshot' })),
      );
    let snapshot: WorldSnapshot;
    try {
      snapshot = readWorldSnapshot(request.snapshot);
    } catch (error) {
      const message = (error as Error).message.replace(/^bvs-mock: /, '');
      throw problems.validationFailed([{ path: '$.snapshot', code: 'invalid_snapshot', message }], 'snapshot');
    }
    const secret = () => randomBytes(18).toString('base64url');
    const organizations = snapshot.organizations.configuration.organizations.map((organization) => ({
      ...organization,
      api_keys: organization.api_keys.map((key) => (this.keyTaken(key) ? `bvs_key_${secret()}` : key)),
      oauth_clients: organization.oauth_clients.map((client) =>
        this.clientTaken(client.client_id) ? { ...client, client_id: `bvs_client_${randomBytes(8).toString('hex')}`, client_secret: secret() } : client,
      ),
    }));
    const world = this.madeWorld(id, made, { snapshot: { ...snapshot, organizations: { ...snapshot.organizations, configuration: { organizations } } } });
    return this.add({ id, label, made, world, createdAt: this.options.base.wallClock.wallNow(), organizations });
  }

  /** A session's world: the server's options, the session's making and its own parts; what cannot be built is the caller's input. */
  private madeWorld(id: string, made: SessionMaking, own: Partial<WorldOptions>): World {
    try {
      return createWorld({
        ...this.options.base,
        strict: made.strict,
        tolerance: made.tolerance,
        tokenClock: made.tokenClock,
        publicUrl: this.options.defaultWorld.signer.baseUrl,
        mount: `${SESSIONS_PATH}/${id}`,
        tokenTag: id,
        ...own,
      });
    } catch (error) {
      // What is left to refuse here is the session's own input: a start time, a scenario clashing with another, a snapshot that does not hold together.
      throw problems.invalidRequest(`The session cannot be made: ${(error as Error).message.replace(/^bvs-mock: /, '')}`);
    }
  }

  /** Puts a session in the indexes: by id, by each API key and OAuth client. */
  private add(fields: Omit<Session, 'lastUsed'> & { lastUsed?: number }): Session {
    const session: Session = { ...fields, lastUsed: this.options.base.wallClock.wallNow() };
    this.sessions.set(session.id, session);
    for (const organization of session.organizations) {
      for (const key of organization.api_keys) this.byKey.set(key, session);
      for (const client of organization.oauth_clients) this.byClient.set(client.client_id, session);
    }
    this.armSweeper();
    return session;
  }

  private keyTaken(key: string): boolean {
    return this.byKey.has(key) || this.options.defaultWorld.registry.byApiKey(key) !== undefined;
  }

  private clientTaken(clientId: string): boolean {
    return this.byClient.has(clientId) || this.options.defaultWorld.registry.hasClient(clientId);
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
    const taken: Issue[] = [];
    organizations.forEach((organization, index) => {
      organization.api_keys.forEach((key, keyIndex) => {
        if (this.keyTaken(key)) taken.push(inUse('API key', key, `$.organizations[${index}].api_keys[${keyIndex}]`));
      });
      organization.oauth_clients.forEach((client, clientIndex) => {
        if (this.clientTaken(client.client_id))
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
