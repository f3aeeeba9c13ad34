/** Why a driven action (control API, revalidation, input) was refused. */
export type ActionErrorCode = 'not_found' | 'conflict' | 'scenario_not_found';

/** Outcome of an action on the engine: done, or refused with a code and a sentence saying what to do. */
export type ActionResult<T = undefined> = { ok: true; value: T } | { ok: false; code: ActionErrorCode; message: string };

/** A refusal. */
export function refuse(code: ActionErrorCode, message: string): { ok: false; code: ActionErrorCode; message: string } {
  return { ok: false, code, message };
}

/** A success carrying `value`. */
export function done<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}
