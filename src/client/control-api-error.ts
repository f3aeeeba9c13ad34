/** bvs-mock's error shape, as far as a refusal is read here. */
interface ErrorBody {
  error?: { code?: string; message?: string; issues?: Array<{ path?: string; message?: string }> };
}

/**
 * A control API call bvs-mock refused: its status and the error it answered.
 *
 * @example
 * await expect(bvs.control.informationRequest.evaluate(id, 'Too early.')).rejects.toMatchObject({ status: 409 });
 */
export class ControlApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly call: string,
  ) {
    const error = errorOf(body);
    super(`bvs-mock: ${call} answered ${status}${error ? ` ${error.code}: ${error.message}` : ''}`);
    this.name = 'ControlApiError';
  }

  /** The error's code (`not_found`, `conflict`, ...), or `error` when the answer was not bvs-mock's error shape. */
  get code(): string {
    return errorOf(this.body)?.code ?? 'error';
  }

  /** What bvs-mock said, with the issues' paths: what a person reads (the dashboard shows it). */
  get reason(): string {
    const error = errorOf(this.body);
    const message = error?.message ?? `${this.call} answered ${this.status}`;
    const issues = (error?.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    return issues === '' ? message : `${message} ${issues}`;
  }
}

function errorOf(body: unknown): ErrorBody['error'] {
  return typeof body === 'object' && body !== null ? (body as ErrorBody).error : undefined;
}
