import type { Issue } from '../schemas';

/** Why a driven action (control API, revalidation, input) was refused. */
export type ActionErrorCode = 'not_found' | 'conflict' | 'scenario_not_found' | 'invalid_scenario_parameters';

/** A refused action: a code, a sentence saying what to do, and where the refusal comes from when that helps (`$.status`). */
export interface Refusal {
  ok: false;
  code: ActionErrorCode;
  message: string;
  issues?: Issue[];
}

/** Outcome of an action on the engine: done, or refused. */
export type ActionResult<T = undefined> = { ok: true; value: T } | Refusal;

/** A refusal. */
export function refuse(code: ActionErrorCode, message: string, issues?: Issue[]): Refusal {
  return issues === undefined ? { ok: false, code, message } : { ok: false, code, message, issues };
}

/** A success carrying `value`. */
export function done<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}
