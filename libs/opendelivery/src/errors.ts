/**
 * The standard's error body (components/schemas/Error: `title`, `status`), served as
 * `application/problem+json`. Built from any platform error body: its stable code stays as `error`
 * (an extension member, allowed by RFC 9457), its human text becomes `title`.
 */
export const OD_ERROR_MEDIA_TYPE = 'application/problem+json';

const DEFAULT_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface OdError {
  title: string;
  status: number;
  error?: string;
  traceId?: string;
  errors?: unknown;
}

export function toOdError(status: number, body: unknown): OdError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = [b.message, b.error_description, b.title].find((v) => typeof v === 'string' && v) as
    | string
    | undefined;
  const out: OdError = { title: text ?? DEFAULT_TITLES[status] ?? 'Error', status };
  if (typeof b.error === 'string') out.error = b.error;
  if (typeof b.traceId === 'string') out.traceId = b.traceId;
  if (b.errors !== undefined) out.errors = b.errors;
  return out;
}
