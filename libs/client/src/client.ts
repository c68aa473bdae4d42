import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { type ConsumeHandler, type ConsumeOptions, type ConsumeStats, consume } from './consume.ts';
import { apiError } from './errors.ts';
import type { RetryPolicy } from './retry.ts';
import { TokenManager, type TokenStore } from './tokens.ts';
import { authorizedFetch, type RetryInfo } from './transport.ts';
import type {
  AckResult,
  ActionResult,
  CancellationBody,
  EventEnvelope,
  EventHistory,
  EventHistoryQuery,
  Menus,
  Merchant,
  Order,
  OrderList,
  OrderListQuery,
  PollQuery,
  Profile,
  SpecPaths,
} from './types.ts';

export interface ClientOptions<P extends Profile = 'SPEC'> {
  /** the API's public base URL, e.g. `https://api.example.com` */
  baseUrl: string;
  clientId: string;
  /** never put it in code, logs or URLs: read it from the environment or a vault */
  clientSecret: string;
  /** the credential's API profile (default `SPEC`); it types orders and events */
  profile?: P;
  /** the credential's store: the default of `merchant.get()` / `merchant.menus()` */
  merchantId?: string;
  /** share one manager between clients of the same credential (or pass `tokenStore`) */
  tokens?: TokenManager;
  /** where tokens are shared across processes (default: this process only) */
  tokenStore?: TokenStore;
  /** renew the token this long before expiry (default 5 minutes) */
  tokenMarginMs?: number;
  retry?: Partial<RetryPolicy>;
  /** per attempt (default 15 s) */
  timeoutMs?: number;
  /** a fetch of your own (proxy, tracing, tests) */
  fetch?: typeof fetch;
  /** called before each retry (log it; it never carries a secret) */
  onRetry?: (info: RetryInfo) => void;
}

/** Per call: an `AbortSignal` stops the call and its retries at once. */
export interface CallOptions {
  signal?: AbortSignal;
}
/** Per action: the Idempotency-Key (default: a new UUID per call, kept across its retries). */
export interface ActionOptions extends CallOptions {
  /** reuse it when you repeat the same logical action yourself (e.g. after a crash) */
  idempotencyKey?: string;
}

type Action<P extends Profile> = (orderId: string, options?: ActionOptions) => Promise<ActionResult<P>>;

export interface OrdersApi<P extends Profile> {
  /** `GET /v1/orders/{orderId}` (scope `orders:read`) */
  get(orderId: string, options?: CallOptions): Promise<Order<P>>;
  /** `PENDING` -> `ACCEPTED` (scope `orders:write`, like every action) */
  confirm: Action<P>;
  /** `ACCEPTED` -> `PREPARING` (extension) */
  startPreparation: Action<P>;
  /** -> `READY` */
  readyForPickup: Action<P>;
  /** -> `DELIVERY` (not for `INDOOR` orders) */
  dispatch: Action<P>;
  /** -> `DONE` for takeout and indoor orders (extension) */
  pickedUp: Action<P>;
  /** -> `DONE` */
  delivered: Action<P>;
  /** immediate cancellation (SPEC); the standard's cancellation request (OPEN_DELIVERY) */
  requestCancellation(
    orderId: string,
    body?: CancellationBody<P>,
    options?: ActionOptions,
  ): Promise<ActionResult<P>>;
  /** `GET /v1/orders` (extension): one page of the store's orders in a date range, newest first */
  list(query?: OrderListQuery, options?: CallOptions): Promise<OrderList>;
  /** Every order of the range, page after page (`list` with its `nextCursor`). */
  listAll(
    query?: Omit<OrderListQuery, 'cursor'>,
    options?: CallOptions,
  ): AsyncGenerator<ItemOf<OrderList, 'orders'>>;
}

export interface EventsApi<P extends Profile> {
  /** `GET /v1/events:polling`: pending events, oldest first (`[]` when none) */
  poll(query?: PollQuery, options?: CallOptions): Promise<EventEnvelope<P>[]>;
  /** `POST /v1/events/acknowledgment` for these events (ids or envelopes) */
  ack(events: readonly (string | { eventId: string })[], options?: CallOptions): Promise<AckResult<P>>;
  /** `GET /v1/events` (extension): one page of the credential's events in a range, acknowledged or not */
  history(query?: EventHistoryQuery, options?: CallOptions): Promise<EventHistory>;
  /** Every event of the range, page after page. */
  historyAll(
    query?: Omit<EventHistoryQuery, 'cursor'>,
    options?: CallOptions,
  ): AsyncGenerator<ItemOf<EventHistory, 'events'>>;
  /**
   * The polling loop: poll, hand each new event to `handler`, acknowledge it once the handler
   * resolved, skip duplicates (by `eventId`), back off when idle or failing; resolves when
   * `options.signal` aborts, rejects with an `OdAuthError` when the credential is refused.
   */
  consume(handler: ConsumeHandler<P>, options?: ConsumeOptions): Promise<ConsumeStats>;
}

export interface MerchantApi {
  /** `GET /v1/merchant/{merchantId}` (scope `merchant:read`) */
  get(merchantId?: string, options?: CallOptions): Promise<Merchant>;
  /** `GET /v1/merchant/{merchantId}/menus` (scope `catalog:read`) */
  menus(merchantId?: string, options?: CallOptions): Promise<Menus>;
}

export interface OdClient<P extends Profile = 'SPEC'> {
  readonly profile: P;
  readonly orders: OrdersApi<P>;
  readonly events: EventsApi<P>;
  readonly merchant: MerchantApi;
  /** the token manager (share it with another client of the same credential) */
  readonly tokens: TokenManager;
  /** the typed openapi-fetch client (same token and retry rules) for anything not wrapped above */
  readonly raw: Client<SpecPaths>;
}

type ItemOf<T, K extends string> = T extends { [P in K]: readonly (infer E)[] } ? E : unknown;
type Init = {
  params?: { path?: Record<string, string>; query?: Record<string, unknown> };
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};
type Untyped = {
  request(
    method: string,
    path: string,
    init: Init,
  ): Promise<{ data?: unknown; error?: unknown; response: Response }>;
};

/**
 * A client of one credential. Every call carries the shared token, follows the retry rules and
 * throws an {@link OdApiError} (or a subclass) for any answer that is not a success.
 */
export function createOdClient<P extends Profile = 'SPEC'>(o: ClientOptions<P>): OdClient<P> {
  const tokens =
    o.tokens ??
    new TokenManager({
      baseUrl: o.baseUrl,
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      store: o.tokenStore,
      marginMs: o.tokenMarginMs,
      retry: o.retry,
      fetch: o.fetch,
    });
  const raw = createClient<SpecPaths>({
    baseUrl: o.baseUrl.replace(/\/+$/, ''),
    fetch: authorizedFetch({
      tokens,
      retry: o.retry,
      timeoutMs: o.timeoutMs,
      fetch: o.fetch,
      onRetry: o.onRetry,
    }),
  });
  const call = async <T>(method: 'GET' | 'POST', path: string, init: Init = {}): Promise<T> => {
    const { data, error, response } = await (raw as unknown as Untyped).request(method, path, init);
    if (!response.ok) throw apiError(response.status, error, response.headers);
    return data as T;
  };
  const store = (merchantId: string | undefined) => {
    const id = merchantId ?? o.merchantId;
    if (!id) throw new TypeError('merchantId: pass it, or set it in createOdClient({ merchantId })');
    return id;
  };
  const action =
    (name: Exclude<keyof OrdersApi<P>, 'get' | 'list' | 'listAll'>) =>
    (orderId: string, body: unknown, options: ActionOptions = {}) =>
      call<ActionResult<P>>('POST', `/v1/orders/{orderId}/${name}`, {
        params: { path: { orderId } },
        body,
        headers: { 'idempotency-key': options.idempotencyKey ?? randomUUID() },
        signal: options.signal,
      });
  async function* pages<T>(key: 'orders' | 'events', path: string, query: object, options: CallOptions) {
    let cursor: string | null | undefined;
    do {
      const page = await call<Record<string, unknown>>('GET', path, {
        params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
        signal: options.signal,
      });
      for (const item of (page[key] as T[]) ?? []) yield item;
      cursor = page.nextCursor as string | null;
    } while (cursor);
  }

  const orders: OrdersApi<P> = {
    get: (orderId, options = {}) =>
      call('GET', '/v1/orders/{orderId}', { params: { path: { orderId } }, signal: options.signal }),
    confirm: (id, opts) => action('confirm')(id, undefined, opts),
    startPreparation: (id, opts) => action('startPreparation')(id, undefined, opts),
    readyForPickup: (id, opts) => action('readyForPickup')(id, undefined, opts),
    dispatch: (id, opts) => action('dispatch')(id, undefined, opts),
    pickedUp: (id, opts) => action('pickedUp')(id, undefined, opts),
    delivered: (id, opts) => action('delivered')(id, undefined, opts),
    requestCancellation: (id, body, opts) => action('requestCancellation')(id, body, opts),
    list: (query = {}, options = {}) =>
      call('GET', '/v1/orders', {
        params: { query: query as Record<string, unknown> },
        signal: options.signal,
      }),
    listAll: (query = {}, options = {}) => pages('orders', '/v1/orders', query, options),
  };
  const events: EventsApi<P> = {
    poll: (query = {}, options = {}) =>
      call('GET', '/v1/events:polling', {
        params: { query: query as Record<string, unknown> },
        signal: options.signal,
      }),
    ack: (list, options = {}) =>
      call('POST', '/v1/events/acknowledgment', {
        body: list.map((e) => ({ id: typeof e === 'string' ? e : e.eventId })),
        signal: options.signal,
      }),
    history: (query = {}, options = {}) =>
      call('GET', '/v1/events', {
        params: { query: query as Record<string, unknown> },
        signal: options.signal,
      }),
    historyAll: (query = {}, options = {}) => pages('events', '/v1/events', query, options),
    consume: (handler, options = {}) => consume<P>(client, handler, options),
  };
  const merchant: MerchantApi = {
    get: (merchantId, options = {}) =>
      call('GET', '/v1/merchant/{merchantId}', {
        params: { path: { merchantId: store(merchantId) } },
        signal: options.signal,
      }),
    menus: (merchantId, options = {}) =>
      call('GET', '/v1/merchant/{merchantId}/menus', {
        params: { path: { merchantId: store(merchantId) } },
        signal: options.signal,
      }),
  };
  const client: OdClient<P> = { profile: (o.profile ?? 'SPEC') as P, orders, events, merchant, tokens, raw };
  return client;
}
