import { traceLogFields } from '@od/telemetry';
import { type Logger, pino } from 'pino';

export type { Logger };

/** Keys whose value is a secret wherever they appear (top level, or one object down). */
const SECRET_KEYS = [
  'client_secret',
  'clientSecret',
  'webhookSecret',
  'webhook_secret',
  'access_token',
  'accessToken',
  'token',
  'password',
  'newPassword',
  'passwordHash',
  'secret',
  'secrets',
  'authorization',
  'Authorization',
  'apiKey',
  'api_key',
  'setupToken',
  'setup_token',
  'csrfToken',
  'csrf_token',
  'cookie',
  'Cookie',
  'cookies',
];
/** HTTP headers carrying credentials, as Node names them (lowercase). */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-csrf-token',
];

/** Every path under which a secret or token may travel; pino replaces the value before it is written. */
export const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`]),
  '*.*.authorization',
  ...SECRET_HEADERS.flatMap((h) => [`headers["${h}"]`, `*.headers["${h}"]`, `*.*.headers["${h}"]`]),
  'body',
  '*.body',
];

export function createLogger(
  name: string,
  level = process.env.LOG_LEVEL ?? 'info',
  /** where lines go (default stdout): tests read them */
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // trace_id/span_id of the active span (tracing on): a log line leads to its trace
    mixin: traceLogFields,
  };
  return destination ? pino(options, destination) : pino(options);
}
