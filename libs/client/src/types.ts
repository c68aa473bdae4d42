import type { components as OdComponents, paths as OdPaths } from './generated/opendelivery.ts';
import type { paths as SpecPaths } from './generated/spec.ts';

/**
 * The credential's API profile (chosen when the merchant created it): `SPEC` (the platform's own
 * shapes, the default) or `OPEN_DELIVERY` (the official 1.4.0 contract). Types follow it.
 */
export type Profile = 'SPEC' | 'OPEN_DELIVERY';

export type { OdPaths, SpecPaths };
/** The paths of the document a profile is served from. */
export type PathsOf<P extends Profile> = P extends 'OPEN_DELIVERY' ? OdPaths : SpecPaths;

// Types read from the generated documents. They degrade to `unknown` (never to a compile error)
// where a document does not describe something, so a more precise document only makes them sharper.
type JsonOf<R> = R extends { content: { 'application/json': infer T } }
  ? T
  : R extends { content: { 'application/problem+json': infer T } }
    ? T
    : never;
type OrUnknown<T> = [T] extends [never] ? unknown : T;
type SuccessCode = 200 | 201 | 202 | 203 | 204 | '200' | '201' | '202' | '203' | '204' | '2XX';
type OperationOf<Paths, Path, M extends string> = Path extends keyof Paths
  ? Paths[Path] extends { [K in M]: infer O }
    ? O
    : never
  : never;
/** The JSON body of a path's successful answer(s) in a document. */
export type ResponseOf<Paths, Path, M extends 'get' | 'post' | 'put'> =
  OperationOf<Paths, Path, M> extends { responses: infer R }
    ? OrUnknown<JsonOf<R[keyof R & SuccessCode]>>
    : unknown;
/** The query parameters of a path in a document. */
export type QueryOf<Paths, Path, M extends 'get' | 'post'> =
  OperationOf<Paths, Path, M> extends { parameters: { query?: infer Q } }
    ? [Q] extends [never]
      ? Record<string, never>
      : NonNullable<Q>
    : Record<string, string | number | undefined>;
/** The JSON request body of a path in a document. */
export type BodyOf<Paths, Path, M extends 'post' | 'put'> =
  OperationOf<Paths, Path, M> extends { requestBody?: infer B } ? OrUnknown<JsonOf<NonNullable<B>>> : unknown;
type ElementOf<T> = T extends readonly (infer E)[] ? E : unknown;

/** `GET /v1/orders/{orderId}`: the Order of the profile. */
export type Order<P extends Profile = 'SPEC'> = ResponseOf<PathsOf<P>, '/v1/orders/{orderId}', 'get'>;
/** The answer of a lifecycle action (`202 { status, situation }` for SPEC; no content for OPEN_DELIVERY). */
export type ActionResult<P extends Profile = 'SPEC'> = ResponseOf<
  PathsOf<P>,
  '/v1/orders/{orderId}/confirm',
  'post'
>;
/** The optional body of `requestCancellation` in the profile. */
export type CancellationBody<P extends Profile = 'SPEC'> = BodyOf<
  PathsOf<P>,
  '/v1/orders/{orderId}/requestCancellation',
  'post'
>;
/** An event envelope (polling, webhook) of the profile. */
export type EventEnvelope<P extends Profile = 'SPEC'> = P extends 'OPEN_DELIVERY'
  ? OdComponents['schemas']['Event']
  : ElementOf<ResponseOf<SpecPaths, '/v1/events:polling', 'get'>>;
/** Query of `GET /v1/events:polling`. */
export type PollQuery = QueryOf<SpecPaths, '/v1/events:polling', 'get'>;
/** `GET /v1/orders` (extension): one page of order summaries, newest first. */
export type OrderList = ResponseOf<SpecPaths, '/v1/orders', 'get'>;
export type OrderListQuery = QueryOf<SpecPaths, '/v1/orders', 'get'>;
/** `GET /v1/events` (extension): one page of the credential's events with `acknowledgedAt`. */
export type EventHistory = ResponseOf<SpecPaths, '/v1/events', 'get'>;
export type EventHistoryQuery = QueryOf<SpecPaths, '/v1/events', 'get'>;
/** `GET /v1/merchant/{merchantId}`. */
export type Merchant = ResponseOf<SpecPaths, '/v1/merchant/{merchantId}', 'get'>;
/** `GET /v1/merchant/{merchantId}/menus`: an array holding the store's one menu. */
export type Menus = ResponseOf<SpecPaths, '/v1/merchant/{merchantId}/menus', 'get'>;
/** `POST /v1/events/acknowledgment`'s answer (`{ acknowledged }` for SPEC; no content for OPEN_DELIVERY). */
export type AckResult<P extends Profile = 'SPEC'> = ResponseOf<
  PathsOf<P>,
  '/v1/events/acknowledgment',
  'post'
>;
