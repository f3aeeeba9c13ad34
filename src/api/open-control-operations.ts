/**
 * Control operations that stay open under `--control-token`: readiness probes (Docker, CI) must work
 * without it, and neither the control API's own document nor the server's certificate holds a secret.
 */
export const OPEN_CONTROL_OPERATIONS: ReadonlySet<string> = new Set([
  'control.health',
  'control.document.json',
  'control.document.yaml',
  'control.certificate',
]);
