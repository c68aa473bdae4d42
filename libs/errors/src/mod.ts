import type { FieldErrors } from './field-errors.ts';

/**
 * The error catalogue: every error body of SPEC's Errors table is built here and nowhere else.
 * Services throw `HttpException(errors.x(...))`; the gateway and the RPC layer turn it into the reply.
 */
export interface HttpError {
  status: number;
  /** undefined = empty body */
  body?: unknown;
  headers?: Record<string, string>;
}

export class HttpException extends Error {
  constructor(readonly http: HttpError) {
    super(
      typeof http.body === 'object' && http.body && 'error' in http.body
        ? String(http.body.error)
        : `HTTP ${http.status}`,
    );
  }
}

export const isHttpException = (e: unknown): e is HttpException => e instanceof HttpException;

/**
 * The two `{ error, <text> }` body forms: RFC 6749 (`error_description`, token endpoint) and the
 * business/admin form (`message`).
 */
const errorBody =
  (textKey: 'error_description' | 'message') =>
  (status: number, error: string, text: string, headers?: Record<string, string>): HttpError => ({
    status,
    body: { error, [textKey]: text },
    headers,
  });
const oauth = errorBody('error_description');
const business = errorBody('message');
/** nouns adminNotFound names that take the feminine ("Rota não encontrada.") */
const FEMININE = new Set(['Rota', 'Credencial', 'Loja', 'Entrega']);

export const BEARER_REALM = 'Bearer realm="opendelivery"';
export const BASIC_REALM = 'Basic realm="opendelivery", charset="UTF-8"';
export const RETRY_AFTER = { 'Retry-After': '60' };

export { type FieldErrors, fieldErrorsFromIssues, type IssueLike } from './field-errors.ts';

export const errors = {
  // token endpoint (RFC 6749 bodies)
  tokenInvalidRequest: (description: string) => oauth(400, 'invalid_request', description),
  unsupportedGrantType: () => oauth(400, 'unsupported_grant_type', 'grant_type deve ser client_credentials.'),
  /** Only `error`, no description: unknown client and wrong secret must be indistinguishable. */
  invalidClient: (): HttpError => ({ status: 401, body: { error: 'invalid_client' } }),
  /** RFC 6749 §5.2: a client that authenticated with `Authorization: Basic` is told the scheme. */
  invalidClientBasic: (): HttpError => ({
    status: 401,
    body: { error: 'invalid_client' },
    headers: { 'WWW-Authenticate': BASIC_REALM },
  }),
  /** auth's bounded token work is full: answered at once, the client retries in a second */
  tokenBusy: () =>
    oauth(
      503,
      'temporarily_unavailable',
      'Muitas requisições de token em andamento. Tente novamente em 1 segundo.',
      { 'Retry-After': '1' },
    ),
  /** the token endpoint's service is out of reach: RFC 6749's code, retryable */
  tokenUnavailable: () =>
    oauth(503, 'temporarily_unavailable', 'Serviço temporariamente indisponível. Tente novamente.', {
      'Retry-After': '1',
    }),
  tokenBodyTooLarge: () => oauth(413, 'invalid_request', 'O corpo da requisição excede 4096 bytes.'),
  tokenUnsupportedMediaType: () =>
    oauth(
      415,
      'invalid_request',
      'Content-Type deve ser application/x-www-form-urlencoded ou application/json.',
    ),
  tokenRateLimited: () =>
    oauth(
      429,
      'rate_limit_exceeded',
      'Muitas falhas de autenticação. Tente novamente em 60 segundos.',
      RETRY_AFTER,
    ),

  // bearer checks
  /** No token, expired or invalid token: empty body. */
  unauthenticated: (): HttpError => ({ status: 401, headers: { 'WWW-Authenticate': BEARER_REALM } }),
  invalidToken: () =>
    business(401, 'invalid_token', 'Credencial pausada ou revogada.', {
      'WWW-Authenticate': `${BEARER_REALM}, error="invalid_token"`,
    }),
  insufficientScope: (scope: string) =>
    business(403, 'insufficient_scope', `O token não tem o escopo necessário: ${scope}.`, {
      'WWW-Authenticate': `${BEARER_REALM}, error="insufficient_scope", scope="${scope}"`,
    }),

  // business routes
  invalidIdempotencyKey: () =>
    business(400, 'invalid_idempotency_key', 'Idempotency-Key deve ter no máximo 128 caracteres.'),
  invalidCancellationReason: () =>
    business(
      400,
      'invalid_cancellation_reason',
      'O motivo do cancelamento deve ter no máximo 500 caracteres.',
    ),
  orderNotFound: () => business(404, 'order_not_found', 'Pedido não encontrado.'),
  idempotencyKeyReuse: () =>
    business(409, 'idempotency_key_reuse', 'Idempotency-Key já usada com uma requisição diferente.'),
  invalidTransition: (situation: string, action: string) =>
    business(422, 'invalid_transition', `A ação ${action} não é permitida para um pedido em ${situation}.`),
  // Open Delivery order flows (OPEN_DELIVERY credentials; rendered in the standard's form)
  /** a handshake step with no request of the other party to answer, or on a final order */
  cancellationStepRefused: (step: string, situation: string, pending: string) =>
    business(
      422,
      'invalid_transition',
      pending === 'NONE'
        ? `A ação ${step} não é permitida para um pedido em ${situation} sem pedido de cancelamento pendente.`
        : `A ação ${step} não é permitida para um pedido em ${situation} com pedido de cancelamento pendente (${pending}).`,
    ),
  /** validateCode: the standard answers 400 with the cause in `title` */
  invalidDeliveryCode: () => business(400, 'invalid_delivery_code', 'Código de entrega inválido.'),
  rateLimited: () =>
    business(
      429,
      'rate_limit_exceeded',
      'Limite de requisições excedido. Tente novamente em 60 segundos.',
      RETRY_AFTER,
    ),

  // RFC 9457-style bodies
  notFound: (traceId: string): HttpError => ({
    status: 404,
    body: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
      title: 'Not Found',
      status: 404,
      traceId,
    },
  }),
  validation: (fieldErrors: FieldErrors, traceId: string): HttpError => ({
    status: 400,
    body: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: fieldErrors,
      traceId,
    },
  }),
  payloadTooLarge: (traceId: string): HttpError => ({
    status: 413,
    body: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.14',
      title: 'Payload Too Large',
      status: 413,
      traceId,
    },
  }),
  unsupportedMediaType: (traceId: string): HttpError => ({
    status: 415,
    body: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.16',
      title: 'Unsupported Media Type',
      status: 415,
      traceId,
    },
  }),
  internal: (traceId: string): HttpError => ({
    status: 500,
    body: { error: 'internal_error', message: 'Erro interno. Tente novamente.', traceId },
  }),
  /**
   * A dependency is briefly out of reach (a service, Redis for a keyed action, the gateway's
   * credential view): nothing was executed; the client retries after `Retry-After` (seconds).
   */
  unavailable: (traceId: string): HttpError => ({
    status: 503,
    body: {
      error: 'service_unavailable',
      message: 'Serviço temporariamente indisponível. Tente novamente.',
      traceId,
    },
    headers: { 'Retry-After': '1' },
  }),

  /**
   * A service's answer exceeds the bus message limit (NATS max_payload): a server-side limit, not the
   * client's fault, hence 500 and never a crash. `limit` in bytes.
   */
  replyTooLarge: (traceId: string, limit: number): HttpError => ({
    status: 500,
    body: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.6.1',
      title: 'Reply Too Large',
      status: 500,
      detail: `A resposta excede o limite interno de ${limit} bytes.`,
      traceId,
    },
  }),
  /** A bus request without a valid signed caller context (unsigned, altered, expired). */
  rpcUnauthenticated: (traceId: string): HttpError => ({
    status: 401,
    body: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
      title: 'Unauthorized',
      status: 401,
      traceId,
    },
  }),
  /** A verified caller this operation does not accept. */
  rpcForbidden: (traceId: string): HttpError => ({
    status: 403,
    body: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.4',
      title: 'Forbidden',
      status: 403,
      traceId,
    },
  }),

  // Open Delivery Merchant module (OPEN_DELIVERY callers get them as the standard's Error)
  odNotOnboarded: () =>
    business(
      400,
      'merchant_not_onboarded',
      'Nenhum endereço de GET /v1/merchant registrado para a loja: chame PUT /v1/merchantOnboarding antes.',
    ),
  odNeedsMerchantUrl: () =>
    business(400, 'validation_error', 'getMerchantURL.baseURL é obrigatório no primeiro registro da loja.'),
  odInvalidUrl: (detail: string) => business(400, 'validation_error', `getMerchantURL.baseURL: ${detail}.`),
  odEmptyUpdate: () =>
    business(400, 'validation_error', 'Com entityType preenchido, updatedObjects não pode ser vazio.'),
  /** the store's read of GET /v1/merchant is running, or ended less than the cooldown ago */
  odMerchantFetchPending: (retryAfterSeconds: number) =>
    business(
      429,
      'merchant_fetch_pending',
      `Uma leitura de GET /v1/merchant desta loja está em andamento ou acabou de terminar. Tente novamente em ${retryAfterSeconds} segundo(s).`,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  /** this catalog replica reads as many points of sale as it may at once: not the caller's fault */
  odMerchantFetchBusy: () =>
    business(
      503,
      'merchant_fetch_busy',
      'Muitas leituras de pontos de venda em andamento. Tente novamente em 5 segundos.',
      { 'Retry-After': '5' },
    ),
  odMerchantFetchFailed: (detail: string) =>
    business(400, 'merchant_fetch_failed', `A leitura de GET /v1/merchant falhou: ${detail}.`),
  odInvalidMerchantDocument: (message: string, fieldErrors: FieldErrors): HttpError => ({
    status: 400,
    body: { error: 'invalid_merchant_document', message, errors: fieldErrors },
  }),

  // admin API: { error, message }
  /** a framework's 4xx (unreadable body...) on the admin form, with its own status */
  adminBadRequest: (status: number, message: string) => business(status, 'bad_request', message),
  /** a body over the admin listener's limit, or a request or document over an internal size limit */
  adminPayloadTooLarge: (message: string) => business(413, 'payload_too_large', message),
  merchantNotFound: () => business(404, 'merchant_not_found', 'Loja não encontrada.'),
  merchantExists: () => business(409, 'conflict', 'Já existe um estabelecimento com este id.'),
  credentialNotFound: () => business(404, 'credential_not_found', 'Credencial não encontrada.'),
  credentialRevoked: () =>
    business(409, 'credential_revoked', 'Credencial revogada: a revogação é permanente.'),
  webhookUrlMissing: () =>
    business(409, 'webhook_url_missing', 'A credencial não tem URL de webhook configurada.'),
  noClientSecret: () => business(404, 'no_client_secret', 'A credencial não guarda o segredo do cliente.'),
  webhookUnavailable: (reason: string) =>
    business(409, 'webhook_unavailable', `A credencial não recebe webhooks agora (${reason}).`),
  webhookDeactivated: () =>
    business(409, 'webhook_deactivated', 'URL de webhook desativada: limpe a fila para reativá-la.'),
  /** the test event of an OPEN_DELIVERY credential: the standard has none */
  noStandardTestEvent: () =>
    business(409, 'not_in_standard', 'O padrão Open Delivery não tem evento de teste.'),
  noSigningSecret: () => business(409, 'no_signing_secret', 'A credencial não tem segredo de webhook.'),
  // merchant panel (admin form)
  panelSignInRequired: () => business(401, 'unauthenticated', 'Sessão ausente ou expirada. Entre novamente.'),
  panelWrongPassword: () => business(401, 'invalid_credentials', 'E-mail ou senha incorretos.'),
  panelCsrf: () => business(403, 'csrf_token_invalid', 'Token CSRF ausente ou inválido.'),
  panelForbidden: () => business(403, 'forbidden', 'Seu papel nesta loja não permite esta ação.'),
  panelSetupToken: () =>
    business(400, 'invalid_setup_token', 'Link de definição de senha inválido, já usado ou expirado.'),
  panelTooManySignIns: (retryAfterSeconds: number) =>
    business(429, 'too_many_attempts', 'Muitas tentativas de entrada. Tente novamente mais tarde.', {
      'Retry-After': String(retryAfterSeconds),
    }),
  panelNotTestStore: () =>
    business(409, 'not_a_test_store', 'Pedidos de teste só existem em lojas de teste.'),
  adminValidation: (message: string, fieldErrors?: FieldErrors): HttpError => ({
    status: 400,
    body: { error: 'validation_error', message, ...(fieldErrors ? { errors: fieldErrors } : {}) },
  }),
  /** auth: the store already has CREDENTIALS_PER_STORE_MAX credentials that are not revoked */
  credentialLimitReached: (max: number) =>
    business(
      409,
      'credential_limit_reached',
      `O estabelecimento já tem ${max} credenciais ativas ou pausadas; revogue uma antes de criar outra.`,
    ),
  /** Order intake of a store (or service type) closed, paused or outside its hours: nothing is created. */
  storeClosed: (message: string) => business(409, 'store_closed', message),
  adminNotFound: (what: string) =>
    business(404, 'not_found', `${what} não ${FEMININE.has(what) ? 'encontrada' : 'encontrado'}.`),
  adminUnauthorized: () => business(401, 'unauthorized', 'Token de administração ausente ou inválido.'),
};
