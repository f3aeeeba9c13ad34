import type { ZodObject, ZodType } from 'zod';
import type { ApiErrorCode } from '../schemas';

/** One answer an operation gives on success: its status, what it is, and its body's schema and example. */
export interface DocumentedAnswer {
  status: 200 | 201 | 202 | 204;
  description: string;
  /** The body, `application/json` unless `contentType` says otherwise; none for a 204. */
  schema?: ZodType;
  example?: unknown;
  contentType?: string;
  /** The same answer in other media types (the report as Markdown and JUnit XML): media type to schema. */
  otherContent?: Readonly<Record<string, ZodType>>;
}

/**
 * What the OpenAPI document says of a route, declared beside its handler so the two cannot drift
 * (the document is built from the routes: src/openapi/register-routes.ts).
 *
 * Security follows the route's `access`; the errors every operation of its kind may answer (transport,
 * credentials, body reading, injected faults, an id that does not exist) are added by the builder, so a
 * route lists only the errors its handler answers itself.
 */
export interface OperationDocument {
  tags: readonly string[];
  summary: string;
  description: string;
  /** Path parameters, each with its own schema (`{ id: idOf('evl') }`). */
  params?: ZodObject;
  /** Query parameters (the control API's filters and pages). */
  query?: ZodObject;
  /** The request body and its media type (`application/json` unless said otherwise). */
  body?: {
    schema: ZodType;
    example?: unknown;
    contentType?: 'application/json' | 'application/x-www-form-urlencoded';
    /** The same body in other media types (a scenario as YAML). */
    otherContentTypes?: readonly string[];
    /** False when the body may be left out (the control API's actions without parameters). */
    required?: boolean;
  };
  answer: DocumentedAnswer;
  /** Errors the handler answers itself, beside those the builder adds for every operation of its kind. */
  errors?: readonly ApiErrorCode[];
  /**
   * The spec refers to this operation without giving its path or shape, so both are bvs-mock's choice:
   * marked `x-bvs-mock-extension: true` (docs/fidelity.md row 18).
   */
  extension?: boolean;
  /** Security requirements replacing the ones `access` gives (the token endpoint's client authentication). */
  security?: Array<Record<string, string[]>>;
}
