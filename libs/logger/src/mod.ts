import { traceLogFields } from '@od/telemetry';
import { type Logger, pino } from 'pino';

export type { Logger };

/** Every path under which a secret or token may travel; pino replaces the value before it is written. */
export const REDACT_PATHS = [
  'client_secret',
  'clientSecret',
  'webhookSecret',
  'webhook_secret',
  'access_token',
  'accessToken',
  'token',
  'password',
  'secret',
  'secrets',
  'authorization',
  'Authorization',
  '*.client_secret',
  '*.clientSecret',
  '*.webhookSecret',
  '*.webhook_secret',
  '*.access_token',
  '*.accessToken',
  '*.token',
  '*.password',
  '*.secret',
  '*.secrets',
  '*.authorization',
  '*.Authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.headers.authorization',
  '*.*.authorization',
  'body',
  '*.body',
];

export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // trace_id/span_id of the active span (tracing on): a log line leads to its trace
    mixin: traceLogFields,
  });
}
