/**
 * Control operations that stay open under `--control-token`: readiness probes (Docker, CI) must work
 * without it, and the control API's own document holds no secret.
 */
export const OPEN_CONTROL_OPERATIONS: ReadonlySet<string> = new Set(['control.health', 'control.document.json', 'control.document.yaml']);
