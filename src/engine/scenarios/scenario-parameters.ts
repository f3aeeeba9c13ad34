import { toJsonPath, type Issue, type ParseResult } from '../../schemas';

/** The shape that takes parameters: `X-Mock-Scenario: generated?partners=5&fail=partner-3:definitive`. */
export const GENERATED_SHAPE = 'generated';

/** How an entity of a generated tree fails: its last run fails for good, fails once then succeeds, or waits for input. */
const FAILURE_KINDS = ['definitive', 'temporary', 'missing-input'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

const ALERT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type AlertSeverityName = (typeof ALERT_SEVERITIES)[number];

/** The information request a generated tree plays: none, one that waits to be driven, or one scripted to its evaluation. */
const INFORMATION_REQUESTS = ['none', 'pending', 'evaluated'] as const;

/** Most direct partners of a generated tree (as the built-in large-tree), and most partners of each of them. */
const MAX_PARTNERS = 50;
const MAX_NESTED = 5;

/** An entity of a generated tree: `main`, or a partner by its 1-based place (`partner-3`), or a partner's partner (`partner-3.2`). */
export interface Target {
  /** As written: `main`, `partner-3`, `partner-3.2`. */
  text: string;
  /** Empty for the main entity; `[3]` for partner-3; `[3, 2]` for partner-3.2. */
  place: number[];
}

/** What the parameters ask of a generated tree; every one has a default, so none is required. */
export interface ScenarioParameters {
  /** Direct partners (0 to 50); default 0. */
  partners: number;
  /** Partners of each direct partner (0 to 5); default 0. With any, every direct partner is a company. */
  nested: number;
  fail: Array<{ target: Target; how: FailureKind }>;
  alerts: Array<{ target: Target; severity: AlertSeverityName }>;
  /** `cl`: the main company has a formation whose stakeholders are its direct partners. */
  formation: 'cl' | 'none';
  informationRequest: (typeof INFORMATION_REQUESTS)[number];
  /** Seeds names, TINs and durations; default: the TIN of the create call. */
  seed: string | undefined;
}

type Single = 'partners' | 'nested' | 'formation' | 'information-request' | 'seed';
const SINGLE: readonly Single[] = ['partners', 'nested', 'formation', 'information-request', 'seed'];
const LISTS = ['fail', 'alerts'] as const;
const KNOWN = [...SINGLE, ...LISTS].sort();

const TARGET = /^(?:main|partner-([1-9]\d{0,2})(?:\.([1-9]\d{0,2}))?)$/;

/**
 * Reads the parameters of the generated shape, the text after `generated?`: `name=value` pairs joined
 * by `&`; `fail` and `alerts` take comma-separated items and may be given more than once, the others
 * once. Every problem is found, never only the first, each at its JSON path below `base` (`fail[1]` is
 * the second item of `fail`, counted across repeats), naming the value given and what is allowed.
 *
 * @example
 * parseScenarioParameters('partners=5&fail=partner-3:definitive', '$headers["x-mock-scenario"]');
 */
export function parseScenarioParameters(text: string, base: string): ParseResult<ScenarioParameters> {
  const at = (...keys: PropertyKey[]) => base + toJsonPath(keys).slice(1);
  const issues: Issue[] = [];
  const bad = (path: string, name: string, value: string, allowed: string, code = 'invalid_parameter') =>
    issues.push({ path, code, message: `${name}=${JSON.stringify(value).slice(1, -1)} is not allowed; ${allowed}` });
  const parameters: ScenarioParameters = { partners: 0, nested: 0, fail: [], alerts: [], formation: 'none', informationRequest: 'none', seed: undefined };
  const given = new Set<string>();
  const failed: Array<{ target: Target; path: string }> = [];
  const alerted: Array<{ target: Target; path: string }> = [];
  /** Items of `fail` and `alerts` read so far, good or bad: the index of the next one's path. */
  const items = { fail: 0, alerts: 0 };

  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    const value = equals === -1 ? '' : pair.slice(equals + 1);
    if (!(KNOWN as string[]).includes(name)) {
      issues.push({
        path: at(name),
        code: 'unknown_parameter',
        message: `${JSON.stringify(name)} is not a parameter of the generated shape; the parameters are ${KNOWN.join(', ')}`,
      });
      continue;
    }
    if (equals === -1 || value === '') {
      issues.push({
        path: at(name),
        code: 'invalid_parameter',
        message: `${name} needs a value, written ${name}=VALUE (docs/scenarios.md "Parameters at create time")`,
      });
      continue;
    }
    if ((SINGLE as string[]).includes(name)) {
      if (given.has(name)) {
        issues.push({ path: at(name), code: 'duplicate_parameter', message: `${name} is given twice; give it once` });
        continue;
      }
      given.add(name);
    }
    switch (name) {
      case 'partners':
      case 'nested': {
        const max = name === 'partners' ? MAX_PARTNERS : MAX_NESTED;
        const count = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
        if (!(count <= max)) bad(at(name), name, value, `give a whole number from 0 to ${max}`);
        else parameters[name] = count;
        break;
      }
      case 'formation':
        if (value === 'cl' || value === 'none') parameters.formation = value;
        else bad(at(name), name, value, 'give cl (a Chilean company formation) or none');
        break;
      case 'information-request':
        if ((INFORMATION_REQUESTS as readonly string[]).includes(value)) parameters.informationRequest = value as ScenarioParameters['informationRequest'];
        else bad(at(name), name, value, `give one of ${INFORMATION_REQUESTS.join(', ')}`);
        break;
      case 'seed':
        parameters.seed = value;
        break;
      case 'fail':
        for (const item of value.split(',')) {
          const path = at('fail', items.fail++);
          const [who = '', how = '', ...rest] = item.split(':');
          const target = readTarget(who);
          if (target === undefined || rest.length > 0 || !(FAILURE_KINDS as readonly string[]).includes(how)) {
            bad(path, 'fail', item, `write WHO:HOW, WHO being main or partner-N (partner-N.M with nested), HOW one of ${FAILURE_KINDS.join(', ')}`);
            continue;
          }
          failed.push({ target, path });
          parameters.fail.push({ target, how: how as FailureKind });
        }
        break;
      case 'alerts':
        for (const item of value.split(',')) {
          const path = at('alerts', items.alerts++);
          const [who = '', severity = '', ...rest] = item.split(':');
          const target = readTarget(who);
          if (target === undefined || rest.length > 0 || !(ALERT_SEVERITIES as readonly string[]).includes(severity)) {
            bad(
              path,
              'alerts',
              item,
              `write WHO:SEVERITY, WHO being main or partner-N (partner-N.M with nested), SEVERITY one of ${ALERT_SEVERITIES.join(', ')}`,
            );
            continue;
          }
          alerted.push({ target, path });
          parameters.alerts.push({ target, severity: severity as AlertSeverityName });
        }
        break;
    }
  }

  // Targets are checked once every count is known, as `fail` may come before `partners`.
  const exists = (target: Target, path: string, name: string) => {
    const [partner, nestedPartner] = target.place;
    if (partner !== undefined && partner > parameters.partners) {
      const count = parameters.partners === 0 ? 'partners=0 (the default)' : `partners=${parameters.partners}`;
      issues.push({
        path,
        code: 'unknown_target',
        message: `${name} names ${target.text}, but the tree has ${count}; name main or partner-1 to partner-${parameters.partners}, or give more partners`,
      });
      return false;
    }
    if (nestedPartner !== undefined && nestedPartner > parameters.nested) {
      issues.push({
        path,
        code: 'unknown_target',
        message: `${name} names ${target.text}, but each partner has nested=${parameters.nested} partners of its own; give nested=${nestedPartner} or more`,
      });
      return false;
    }
    return true;
  };
  const seen = new Map<string, string>();
  for (const { target, path } of failed) {
    if (!exists(target, path, 'fail')) continue;
    const earlier = seen.get(target.text);
    if (earlier !== undefined) issues.push({ path, code: 'duplicate_target', message: `${target.text} already fails at ${earlier}; an entity fails one way` });
    seen.set(target.text, path);
  }
  for (const { target, path } of alerted) exists(target, path, 'alerts');
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: parameters };
}

function readTarget(text: string): Target | undefined {
  const match = TARGET.exec(text);
  if (match === null) return undefined;
  const place = [match[1], match[2]].filter((part): part is string => part !== undefined).map(Number);
  return { text, place };
}
