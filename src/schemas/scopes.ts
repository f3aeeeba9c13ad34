/**
 * OAuth scopes. The spec does not show the available scopes nor which endpoint
 * needs which (spec §5.4); these are bvs-mock's choice (docs/fidelity.md row 19).
 * An API token carries every scope.
 */
export const SCOPES = {
  'validations:read': 'Read entity validations and data source run records.',
  'validations:write': 'Create entity validations.',
  'webhook_endpoints:read': "List the organization's webhook endpoints.",
} as const;

/** One scope name. */
export type Scope = keyof typeof SCOPES;

/** Every scope, in a stable order. */
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];
