import type { z } from 'zod';
import type { ControlRoute } from '../api/routes/control-operations';

/**
 * The control API as types, derived from the route table itself (src/api/routes/control-operations.ts):
 * each operation's method, path pattern, path parameters, query, body and answer come from the route's
 * literal declaration and the zod schemas of its document, so a route changed is a client changed.
 * Types only: nothing of the server reaches a bundle that imports this.
 */

/** Every operation of the control API, by name (`control.health`, `control.events.list`, ...). */
export type ControlOperationName = ControlRoute['operation'];

type RouteOf<O extends ControlOperationName> = Extract<ControlRoute, { operation: O }>;
type DocumentOf<O extends ControlOperationName> = RouteOf<O>['document'];

/** The names of a pattern's parameters: `/_mock/events/:id/redeliver` has `id`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The method of an operation. */
export type ControlMethod<O extends ControlOperationName> = RouteOf<O>['method'];
/** The path pattern of an operation, with `:name` for each path parameter. */
export type ControlPattern<O extends ControlOperationName> = RouteOf<O>['pattern'];

/** The path parameters of an operation, by name. */
export type ControlParams<O extends ControlOperationName> = Record<ParamNames<ControlPattern<O>>, string>;

/** The query of an operation, as sent (`z.input` of its document's query schema). */
export type ControlQuery<O extends ControlOperationName> = DocumentOf<O> extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;

/** The JSON body of an operation, as sent (`z.input` of its document's body schema). */
export type ControlBody<O extends ControlOperationName> = DocumentOf<O> extends { body: { schema: infer S extends z.ZodType } } ? z.input<S> : never;

/** The answer of an operation (`z.output` of its document's answer schema); `undefined` for a 204. */
export type ControlAnswer<O extends ControlOperationName> = DocumentOf<O> extends { answer: { schema: infer S extends z.ZodType } } ? z.output<S> : undefined;

type ParamsPart<O extends ControlOperationName> = [ParamNames<ControlPattern<O>>] extends [never] ? object : { params: ControlParams<O> };
type QueryPart<O extends ControlOperationName> = [ControlQuery<O>] extends [never] ? object : { query?: ControlQuery<O> };
type BodyPart<O extends ControlOperationName> = [ControlBody<O>] extends [never]
  ? object
  : DocumentOf<O> extends { body: { otherContentTypes: readonly string[] } }
    ? // A scenario as YAML text, or as an object sent as JSON.
      { body: ControlBody<O> } | { body: string; contentType: string }
    : DocumentOf<O> extends { body: { required: false } }
      ? { body?: ControlBody<O> }
      : { body: ControlBody<O> };

/** What one call of an operation takes: its path parameters, query and body, each only where it has them. */
export type ControlInput<O extends ControlOperationName> = ParamsPart<O> & QueryPart<O> & BodyPart<O>;

/** Each operation's method and pattern, as the route table declares them: the runtime half of the contract. */
export type ControlPathTable = { readonly [O in ControlOperationName]: readonly [ControlMethod<O>, ControlPattern<O>] };
