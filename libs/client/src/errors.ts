/**
 * What kind of failure an {@link OdApiError} is; decide on this (or on `status`), never on `message`.
 * - `rate_limit`: 429 (after the retries the policy allowed); `retryAfterSeconds` says when to come back
 * - `auth`: 401 (no, expired or refused token; `invalid_token`/`invalid_client`: the credential is
 *   paused, revoked or wrong: a person must act) or 403 (`insufficient_scope`)
 * - `validation`: 400 (the request itself is wrong; `fieldErrors` names the fields when the API did)
 * - `not_found`: 404; `conflict`: 409 (`idempotency_key_reuse`); `state`: 422 (`invalid_transition`)
 * - `unavailable`: 5xx after the retries; `other`: any other status
 */
export type OdErrorKind =
  | 'rate_limit'
  | 'auth'
  | 'validation'
  | 'not_found'
  | 'conflict'
  | 'state'
  | 'unavailable'
  | 'other';

/** A non-2xx answer of the API, with its stable `error` code and the request's `traceId`. */
export class OdApiError extends Error {
  override readonly name: string = 'OdApiError';
  /** HTTP status */
  readonly status: number;
  /** stable error code (`order_not_found`, `invalid_transition`, ...); `undefined` when the body had none */
  readonly error: string | undefined;
  /** the server's trace id (give it to support), from the body or the `x-request-id` header */
  readonly traceId: string | undefined;
  /** fields and their messages, for validation answers (ValidationProblemDetails `errors`) */
  readonly fieldErrors: Record<string, string[]> | undefined;
  /** the parsed body (or its text when it was not JSON) */
  readonly body: unknown;
  readonly kind: OdErrorKind;
  constructor(status: number, body: unknown, headers?: Headers) {
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const message =
      str(b.message) ?? str(b.error_description) ?? str(b.title) ?? str(b.detail) ?? `HTTP ${status}`;
    super(message);
    this.status = status;
    this.error = str(b.error);
    this.traceId = str(b.traceId) ?? headers?.get('x-request-id') ?? undefined;
    this.fieldErrors =
      b.errors && typeof b.errors === 'object' ? (b.errors as Record<string, string[]>) : undefined;
    this.body = body;
    this.kind = kindOf(status);
  }
}

/** 429: the request limit; `retryAfterSeconds` from the `Retry-After` header. */
export class OdRateLimitError extends OdApiError {
  override readonly name = 'OdRateLimitError';
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, body: unknown, headers?: Headers) {
    super(status, body, headers);
    const ms = headers ? retryAfterMs(headers) : undefined;
    this.retryAfterSeconds = ms === undefined ? undefined : Math.ceil(ms / 1000);
  }
}

/**
 * 401 or 403. `credentialRejected` is true for `invalid_token` / `invalid_client`: the credential
 * is paused, revoked or its secret is wrong; retrying does not help, stop and tell a person.
 */
export class OdAuthError extends OdApiError {
  override readonly name = 'OdAuthError';
  get credentialRejected(): boolean {
    return this.error === 'invalid_token' || this.error === 'invalid_client';
  }
}

/** 400: the request is wrong (`fieldErrors` by field when the API named them). */
export class OdValidationError extends OdApiError {
  override readonly name = 'OdValidationError';
}

/** No answer at all after the retries: network error or timeout (`cause` holds the last one). */
export class OdNetworkError extends Error {
  override readonly name = 'OdNetworkError';
}

function kindOf(status: number): OdErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 400) return 'validation';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 422) return 'state';
  if (status >= 500) return 'unavailable';
  return 'other';
}

/** The typed error of an answer (the body already parsed). */
export function apiError(status: number, body: unknown, headers?: Headers): OdApiError {
  if (status === 429) return new OdRateLimitError(status, body, headers);
  if (status === 401 || status === 403) return new OdAuthError(status, body, headers);
  if (status === 400) return new OdValidationError(status, body, headers);
  return new OdApiError(status, body, headers);
}

/** Reads a response body as JSON when it is JSON, as text otherwise, `undefined` when empty. */
export async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date); `undefined` when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const h = headers.get('retry-after');
  if (!h) return undefined;
  if (/^\d+$/.test(h.trim())) return Number(h.trim()) * 1000;
  const d = Date.parse(h);
  return Number.isNaN(d) ? undefined : Math.max(0, d - now);
}
